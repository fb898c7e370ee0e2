/**
 * Errors raised while loading and resolving a gym config. All are {@link GymUserError}s: the user
 * fixes a file, a flag or an environment variable. Catalogued in `docs/errors-config.md`.
 * @module
 */
import { GymUserError } from '../errors.js';
import type { GymErrorOptions } from '../errors.js';

/** A config file or selector names something that is not on disk. */
export class ConfigFileNotFoundError extends GymUserError {
  constructor(message: string, options?: GymErrorOptions) {
    super('GYM_CONFIG_FILE_NOT_FOUND', message, options);
  }
}

/** A config file is not valid YAML or its top level is not a map. */
export class ConfigYamlError extends GymUserError {
  constructor(message: string, options?: GymErrorOptions) {
    super('GYM_CONFIG_BAD_YAML', message, options);
  }
}

/** A CLI override (`+k=v`, `++k=v`, `k=v`, `~k`) is malformed or cannot be applied. */
export class ConfigOverrideError extends GymUserError {
  constructor(message: string, options?: GymErrorOptions) {
    super('GYM_CONFIG_BAD_OVERRIDE', message, options);
  }
}

/** One or more `${…}` interpolations cannot be resolved (unknown key, unset variable, cycle). */
export class ConfigInterpolationError extends GymUserError {
  constructor(message: string, options?: GymErrorOptions) {
    super('GYM_CONFIG_INTERPOLATION', message, options);
  }
}

/** One or more values are still `???` after merging every source. */
export class ConfigMissingValueError extends GymUserError {
  /** Dotted key paths (`a.b`, `a.list[0]`) of every value left at `???`. */
  readonly paths: readonly string[];

  constructor(message: string, paths: readonly string[]) {
    super('GYM_CONFIG_MISSING_VALUE', message);
    this.paths = paths;
  }
}

/** A server block or reserved key has the wrong shape or field types. */
export class ConfigInvalidError extends GymUserError {
  constructor(message: string, options?: GymErrorOptions) {
    super('GYM_CONFIG_INVALID', message, options);
  }
}

/** A `{type, name}` reference names a server instance the merged config does not declare. */
export class ConfigUnknownReferenceError extends GymUserError {
  constructor(message: string, options?: GymErrorOptions) {
    super('GYM_CONFIG_UNKNOWN_REFERENCE', message, options);
  }
}

/** No free port was found for a server that has none configured. */
export class ConfigNoFreePortError extends GymUserError {
  constructor(message: string, options?: GymErrorOptions) {
    super('GYM_CONFIG_NO_FREE_PORT', message, options);
  }
}
