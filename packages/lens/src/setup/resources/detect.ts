/**
 * Resource detection and the precedence rule that assembles a process's resource attributes.
 * @module
 */
import { createRequire } from 'node:module';
import type { Attributes } from '@opentelemetry/api';
import { readEnv } from '../env.js';
import type { Env } from '../env.js';
import type { NemoLensConfigFields } from '../config.js';
import { detectKubernetes, K8S_SECRETS_DIR } from './kubernetes.js';
import { detectGpuCount, detectHostProcess } from './local.js';
import { parseOtelResourceAttributes } from './otel-resource-attributes.js';
import { detectSlurm } from './slurm.js';

/** Options of {@link detectResource}; for tests. */
export interface DetectResourceOptions {
  /** Directory whose presence marks a Kubernetes pod. Default `/var/run/secrets/kubernetes.io`. */
  k8sSecretsDir?: string;
}

/** The version of this package, emitted as `service.version`. */
export const LENS_VERSION: string = readVersion();

/**
 * Runs every detector against `env` and merges what they found: host, process, GPU count,
 * Kubernetes, Slurm and `deployment.environment` (`DEPLOYMENT_ENV`, else `ENVIRONMENT`). Each
 * detector is isolated: one that throws contributes nothing. Never rejects.
 */
export async function detectResource(env: Env = process.env, options: DetectResourceOptions = {}): Promise<Attributes> {
  const secretsDir = options.k8sSecretsDir ?? K8S_SECRETS_DIR;
  const parts = await Promise.all([
    guard(() => detectHostProcess()),
    guard(() => detectGpuCount(env)),
    guard(() => detectKubernetes(env, secretsDir)),
    guard(() => detectSlurm(env)),
    guard(() => {
      const deployment = readEnv(env, 'DEPLOYMENT_ENV') ?? readEnv(env, 'ENVIRONMENT');
      return deployment === undefined ? {} : { 'deployment.environment': deployment };
    }),
  ]);
  return Object.assign({}, ...parts) as Attributes;
}

/** Inputs of {@link resolveResourceAttributes}. */
export interface ResolveResourceOptions {
  /** The configuration (service name, run id, user, W&B). */
  config: Pick<NemoLensConfigFields, 'serviceName' | 'runId' | 'user' | 'wandbEntity' | 'wandbProject'>;
  /** Environment, for `OTEL_RESOURCE_ATTRIBUTES` and the detectors. */
  env: Env;
  /** Caller attributes: win over everything. */
  resourceAttributes?: Attributes | undefined;
  /** Caller defaults: lose to everything. */
  resourceAttributeDefaults?: Attributes | undefined;
  /** Detector options (tests). */
  detect?: DetectResourceOptions | undefined;
}

/**
 * The logical resource attributes of this process, by precedence (highest first):
 * caller `resourceAttributes` > attributes the config sets (`service.name`, `service.version`,
 * `nemo.run.id`, and `nemo.user.id` / `wandb.*` when non-empty) > `OTEL_RESOURCE_ATTRIBUTES` >
 * detected > `resourceAttributeDefaults`. Never rejects.
 */
export async function resolveResourceAttributes(options: ResolveResourceOptions): Promise<Attributes> {
  const { config, env } = options;
  const fromConfig: Attributes = { 'service.name': config.serviceName, 'service.version': LENS_VERSION };
  if (config.runId) fromConfig['nemo.run.id'] = config.runId;
  if (config.user) fromConfig['nemo.user.id'] = config.user;
  if (config.wandbEntity) fromConfig['wandb.entity'] = config.wandbEntity;
  if (config.wandbProject) fromConfig['wandb.project'] = config.wandbProject;
  let fromEnv: Attributes = {};
  try {
    fromEnv = parseOtelResourceAttributes(env['OTEL_RESOURCE_ATTRIBUTES']);
  } catch {
    // a hostile env object must not break setup
  }
  const detected = await detectResource(env, options.detect);
  return dropUndefined({
    ...options.resourceAttributeDefaults,
    ...detected,
    ...fromEnv,
    ...fromConfig,
    ...options.resourceAttributes,
  });
}

async function guard(detector: () => Attributes | Promise<Attributes>): Promise<Attributes> {
  try {
    return await detector();
  } catch {
    return {};
  }
}

function dropUndefined(attrs: Attributes): Attributes {
  for (const key of Object.keys(attrs)) if (attrs[key] === undefined || attrs[key] === null) delete attrs[key];
  return attrs;
}

function readVersion(): string {
  try {
    // same relative depth from src/setup/resources and dist/setup/resources
    const pkg = createRequire(import.meta.url)('../../../package.json') as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
