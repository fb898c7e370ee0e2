/**
 * The gym config system: YAML merge, includes, `env.yaml`, interpolation, CLI overrides,
 * `???` detection, server blocks, references, host/port assignment and selectors.
 * See docs/config.md.
 * @module
 */
export { loadConfig } from './load.js';
export { configPathsFromSelectors } from './selectors.js';
export type { SelectorContext } from './selectors.js';
export { redactSecrets, isSecretKey, REDACTED, DEFAULT_SECRET_WORDS } from './redact.js';
export { dumpConfigYaml } from './dump.js';
export { mergeConfigs, mergeTrees, formatPath } from './tree.js';
export type { KeyPath } from './tree.js';
export { parseConfigYaml, readConfigFile } from './yaml-file.js';
export { loadConfigFiles, CONFIG_PATHS_KEY } from './includes.js';
export type { ConfigLayer, LoadedConfigFiles } from './includes.js';
export { resolveInterpolations, resolveValueAt, MISSING } from './interpolation.js';
export type { InterpolationOptions } from './interpolation.js';
export { collectMissingValues, assertNoMissingValues } from './missing-values.js';
export { parseOverride, parseOverrides, parseOverrideValue } from './override-parse.js';
export type { ConfigOverride, OverrideOp } from './override-parse.js';
export { applyOverrides } from './override-apply.js';
export { findServerBlocks } from './servers.js';
export type { ServerBlock, FoundServerBlocks } from './servers.js';
export { isServerRef, findServerRefs, checkServerRefs } from './references.js';
export type { FoundReference, ReferenceTarget } from './references.js';
export { RESERVED_TOP_LEVEL_KEYS, isReservedKey } from './reserved-keys.js';
export { RESOURCES_DOMAINS } from './server-schema.js';
export { assignHostsAndPorts, findFreePort, isPortFree, DEFAULT_HEAD_SERVER_PORT, DEFAULT_HOST, DEFAULT_PORT_RANGE_LOW, DEFAULT_PORT_RANGE_HIGH } from './ports.js';
export type { PortAssignmentOptions } from './ports.js';
export { searchRoots, lookupPath, EXTRA_ROOTS_ENV } from './search-roots.js';
export type { PathLookup } from './search-roots.js';
export { Provenance } from './provenance.js';
export { readGlobalSettings, applyAgentDefaults } from './globals.js';
export type { GlobalSettings } from './globals.js';
export { closeMatches, levenshtein } from './suggest.js';
export { SERVER_TYPES } from './types.js';
export type { ConfigMap, ConfigSelectors, HeadServerConfig, LoadConfigOptions, ResolvedConfig, ServerInstanceConfig, ServerRef, ServerType } from './types.js';
export {
  ConfigFileNotFoundError,
  ConfigYamlError,
  ConfigOverrideError,
  ConfigInterpolationError,
  ConfigMissingValueError,
  ConfigInvalidError,
  ConfigUnknownReferenceError,
  ConfigNoFreePortError,
} from './errors.js';
