/**
 * Errors raised while loading and resolving a gym config, built from their rows of the runtime's
 * table (error-codes.ts). All are `GymUserError`s: the user fixes a file, a flag or an environment
 * variable. Catalogued in `docs/errors-config.md`.
 * @module
 */
import { gymErrorClass } from '../error-class.js';

/** A config file or selector names something that is not on disk. */
export class ConfigFileNotFoundError extends gymErrorClass('GYM_CONFIG_FILE_NOT_FOUND') {}

/** A config file is not valid YAML or its top level is not a map. */
export class ConfigYamlError extends gymErrorClass('GYM_CONFIG_BAD_YAML') {}

/** A CLI override (`+k=v`, `++k=v`, `k=v`, `~k`) is malformed or cannot be applied. */
export class ConfigOverrideError extends gymErrorClass('GYM_CONFIG_BAD_OVERRIDE') {}

/** One or more `${…}` interpolations cannot be resolved (unknown key, unset variable, cycle). */
export class ConfigInterpolationError extends gymErrorClass('GYM_CONFIG_INTERPOLATION') {}

/** One or more values are still `???` after merging every source. */
export class ConfigMissingValueError extends gymErrorClass('GYM_CONFIG_MISSING_VALUE') {
  /** Dotted key paths (`a.b`, `a.list[0]`) of every value left at `???`. */
  readonly paths: readonly string[];

  constructor(message: string, paths: readonly string[]) {
    super(message);
    this.paths = paths;
  }
}

/** A server block or reserved key has the wrong shape or field types. */
export class ConfigInvalidError extends gymErrorClass('GYM_CONFIG_INVALID') {}

/** A `{type, name}` reference names a server instance the merged config does not declare. */
export class ConfigUnknownReferenceError extends gymErrorClass('GYM_CONFIG_UNKNOWN_REFERENCE') {}

/** No free port was found for a server that has none configured. */
export class ConfigNoFreePortError extends gymErrorClass('GYM_CONFIG_NO_FREE_PORT') {}
