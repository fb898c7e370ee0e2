/**
 * Kubernetes attributes from the downward-API environment variables.
 * @module
 */
import { existsSync } from 'node:fs';
import type { Attributes } from '@opentelemetry/api';
import { readEnv } from '../env.js';
import type { Env } from '../env.js';

/** The directory whose presence marks a pod even without `KUBERNETES_SERVICE_HOST`. */
export const K8S_SECRETS_DIR = '/var/run/secrets/kubernetes.io';

const MAPPING: ReadonlyArray<[string, string]> = [
  ['K8S_NAMESPACE', 'k8s.namespace.name'],
  ['K8S_POD_UID', 'k8s.pod.uid'],
  ['K8S_NODE_NAME', 'k8s.node.name'],
  ['K8S_CONTAINER_NAME', 'k8s.container.name'],
  ['K8S_JOB_NAME', 'k8s.job.name'],
];

/**
 * Active when `KUBERNETES_SERVICE_HOST` is set or `secretsDir` exists. Maps `K8S_NAMESPACE`,
 * `K8S_POD_NAME` (fallback `HOSTNAME`), `K8S_POD_UID`, `K8S_NODE_NAME`, `K8S_CONTAINER_NAME`,
 * `K8S_JOB_NAME` to `k8s.*` attributes; empty values are omitted.
 */
export function detectKubernetes(env: Env, secretsDir: string = K8S_SECRETS_DIR): Attributes {
  if (readEnv(env, 'KUBERNETES_SERVICE_HOST') === undefined && !existsSync(secretsDir)) return {};
  const out: Attributes = {};
  for (const [variable, key] of MAPPING) {
    const value = readEnv(env, variable);
    if (value !== undefined) out[key] = value;
  }
  const pod = readEnv(env, 'K8S_POD_NAME') ?? readEnv(env, 'HOSTNAME');
  if (pod !== undefined) out['k8s.pod.name'] = pod;
  return out;
}
