/**
 * Slurm attributes derived from `SLURM_*` variables (nemo-lens nightly derivation table), with the
 * job-identity UUID.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Attributes } from '@opentelemetry/api';
import { readEnv } from '../env.js';
import type { Env } from '../env.js';

const STRING_KEYS: ReadonlyArray<[string, string[]]> = [
  ['slurm.job.name', ['SLURM_JOB_NAME']],
  ['slurm.cluster.name', ['SLURM_CLUSTER_NAME']],
  ['slurm.partition', ['SLURM_JOB_PARTITION', 'SLURM_PARTITION']],
  ['slurm.sluid', ['LENS_SLURM_SLUID', 'NV_LAUNCH_SLUID']],
  ['slurm.array.sluid', ['LENS_SLURM_ARRAY_SLUID', 'NV_LAUNCH_ARRAY_SLUID']],
  ['slurm.job.user', ['SLURM_JOB_USER']],
  ['slurm.job.account', ['SLURM_JOB_ACCOUNT']],
  ['slurm.job.qos', ['SLURM_JOB_QOS']],
  ['slurm.job.reservation', ['SLURM_JOB_RESERVATION']],
  ['slurm.segment', ['SLURM_SEGMENT']],
  ['slurm.topology.addr', ['SLURM_TOPOLOGY_ADDR']],
  ['slurm.topology.addr_pattern', ['SLURM_TOPOLOGY_ADDR_PATTERN']],
];
const INT_KEYS: ReadonlyArray<[string, string[]]> = [
  ['slurm.nnodes', ['SLURM_JOB_NUM_NODES', 'SLURM_NNODES']],
  ['slurm.ntasks', ['SLURM_NTASKS']],
];

/** The RFC 4122 URL namespace, used for the identity UUIDs as the original does. */
const URL_NAMESPACE = '6ba7b811-9dad-11d1-80b4-00c04fd430c8';

/**
 * Slurm attributes, `{}` outside a Slurm job (no `SLURM_JOB_ID`). Array jobs get
 * `slurm.job.id = "<array job id>_<task id>"`; `slurm.job.id.raw` keeps `SLURM_JOB_ID`. Empty values
 * and unparsable integers are omitted. `slurm.head_node.name` only outside a job step.
 */
export function detectSlurm(env: Env): Attributes {
  const jobId = readEnv(env, 'SLURM_JOB_ID');
  if (jobId === undefined) return {};
  const arrayJobId = readEnv(env, 'SLURM_ARRAY_JOB_ID');
  const taskId = readEnv(env, 'SLURM_ARRAY_TASK_ID');
  const isArray = arrayJobId !== undefined && taskId !== undefined;
  const out: Attributes = {
    'slurm.job.id': isArray ? `${arrayJobId}_${taskId}` : jobId,
    'slurm.job.id.raw': jobId,
    'slurm.array.job_id': arrayJobId ?? jobId,
    'slurm.array.task_id': taskId ?? '0',
    'slurm.array.count': int(readEnv(env, 'SLURM_ARRAY_TASK_COUNT')) ?? 1,
    'slurm.restart_count': int(readEnv(env, 'SLURM_RESTART_COUNT')) ?? 0,
  };
  for (const [key, vars] of STRING_KEYS) {
    const value = first(env, vars);
    if (value !== undefined) out[key] = value;
  }
  for (const [key, vars] of INT_KEYS) {
    const value = int(first(env, vars));
    if (value !== undefined) out[key] = value;
  }
  const inStep = readEnv(env, 'SLURM_STEP_ID') !== undefined || readEnv(env, 'SLURM_STEPID') !== undefined;
  const headNode = readEnv(env, 'SLURMD_NODENAME');
  if (!inStep && headNode !== undefined) out['slurm.head_node.name'] = headNode;
  const cluster = readEnv(env, 'SLURM_CLUSTER_NAME') ?? 'nocluster';
  out['nv.dl.job.uuid'] = uuidV5(`nemo.lens.job/${cluster}/${isArray ? arrayJobId : jobId}`);
  return out;
}

/** A name-based (SHA-1, version 5) UUID in the URL namespace. */
export function uuidV5(name: string, namespace: string = URL_NAMESPACE): string {
  const ns = Buffer.from(namespace.replaceAll('-', ''), 'hex');
  const hash = createHash('sha1').update(ns).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function first(env: Env, vars: readonly string[]): string | undefined {
  for (const v of vars) {
    const value = readEnv(env, v);
    if (value !== undefined) return value;
  }
  return undefined;
}

function int(value: string | undefined): number | undefined {
  return value !== undefined && /^[+-]?\d+$/.test(value) ? Number.parseInt(value, 10) : undefined;
}
