import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LENS_VERSION, detectKubernetes, detectResource, detectSlurm, formatOtelResourceAttributes, parseOtelResourceAttributes, resolveResourceAttributes } from '@gym/lens/setup';
import { uuidV5 } from '../../src/setup/resources/slurm.js';

const NO_K8S = { k8sSecretsDir: '/nonexistent/k8s-secrets-for-tests' };
// PATH is empty so nvidia-smi is never found unless CUDA_VISIBLE_DEVICES decides
const BASE = { PATH: '' };

describe('detectResource', () => {
  it('reports host, process and runtime attributes', async () => {
    const attrs = await detectResource(BASE, NO_K8S);
    assert.equal(attrs['host.name'], hostname());
    assert.equal(attrs['process.pid'], process.pid);
    assert.equal(attrs['process.runtime.name'], 'nodejs');
    assert.equal(attrs['process.runtime.version'], process.versions.node);
    assert.equal(attrs['host.gpu.count'], undefined);
    assert.equal(attrs['k8s.pod.name'], undefined);
    assert.equal(attrs['slurm.job.id'], undefined);
  });

  it('counts GPUs from CUDA_VISIBLE_DEVICES', async () => {
    for (const [value, count] of [
      ['', 0],
      ['  ', 0],
      ['0', 1],
      ['0,1,3', 3],
      ['GPU-a1b2,GPU-c3d4', 2],
    ] as const) {
      const attrs = await detectResource({ ...BASE, CUDA_VISIBLE_DEVICES: value }, NO_K8S);
      assert.equal(attrs['host.gpu.count'], count, `CUDA_VISIBLE_DEVICES='${value}'`);
    }
  });

  it('counts GPUs from an nvidia-smi found on PATH, and none when it fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-lens-smi-'));
    try {
      const smi = join(dir, 'nvidia-smi');
      writeFileSync(smi, '#!/bin/sh\necho 1\necho 1\n');
      chmodSync(smi, 0o755);
      assert.equal((await detectResource({ PATH: dir }, NO_K8S))['host.gpu.count'], 2);
      writeFileSync(smi, '#!/bin/sh\nexit 9\n');
      assert.equal((await detectResource({ PATH: dir }, NO_K8S))['host.gpu.count'], undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prefers DEPLOYMENT_ENV over ENVIRONMENT', async () => {
    assert.equal((await detectResource({ ...BASE, ENVIRONMENT: 'dev' }, NO_K8S))['deployment.environment'], 'dev');
    assert.equal((await detectResource({ ...BASE, ENVIRONMENT: 'dev', DEPLOYMENT_ENV: 'prod' }, NO_K8S))['deployment.environment'], 'prod');
  });

  it('keeps the other detectors when one throws', async () => {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- the proxy handler's target type comes from this cast
    const hostile = new Proxy({ ...BASE, SLURM_JOB_ID: '7' } as Record<string, string>, {
      get(target, key) {
        if (key === 'KUBERNETES_SERVICE_HOST') throw new Error('hostile env');
        return target[key as string];
      },
    });
    const attrs = await detectResource(hostile, NO_K8S);
    assert.equal(attrs['slurm.job.id'], '7');
    assert.equal(attrs['process.pid'], process.pid);
    assert.equal(attrs['k8s.pod.name'], undefined);
  });
});

describe('detectKubernetes', () => {
  it('maps the downward-API variables, with HOSTNAME as the pod name fallback', () => {
    const attrs = detectKubernetes(
      {
        KUBERNETES_SERVICE_HOST: '10.0.0.1',
        K8S_NAMESPACE: 'rl',
        HOSTNAME: 'pod-abc',
        K8S_POD_UID: 'uid-1',
        K8S_NODE_NAME: 'node-3',
        K8S_CONTAINER_NAME: 'gym',
        K8S_JOB_NAME: 'eval',
        K8S_POD_NAME: ' ',
      },
      NO_K8S.k8sSecretsDir,
    );
    assert.deepEqual(attrs, {
      'k8s.namespace.name': 'rl',
      'k8s.pod.uid': 'uid-1',
      'k8s.node.name': 'node-3',
      'k8s.container.name': 'gym',
      'k8s.job.name': 'eval',
      'k8s.pod.name': 'pod-abc',
    });
  });

  it('detects nothing outside a pod', () => {
    assert.deepEqual(detectKubernetes({ K8S_NAMESPACE: 'rl' }, NO_K8S.k8sSecretsDir), {});
  });
});

describe('detectSlurm', () => {
  it('derives array-job attributes', () => {
    const attrs = detectSlurm({
      SLURM_JOB_ID: '1001',
      SLURM_ARRAY_JOB_ID: '1000',
      SLURM_ARRAY_TASK_ID: '3',
      SLURM_ARRAY_TASK_COUNT: '8',
      SLURM_JOB_NAME: 'collect',
      SLURM_CLUSTER_NAME: 'eos',
      SLURM_PARTITION: 'batch',
      SLURM_JOB_NUM_NODES: '2',
      SLURM_NTASKS: '16',
      SLURM_RESTART_COUNT: 'x',
      SLURMD_NODENAME: 'node-1',
      SLURM_STEP_ID: '0',
      SLURM_JOB_USER: '',
    });
    assert.equal(attrs['slurm.job.id'], '1000_3');
    assert.equal(attrs['slurm.job.id.raw'], '1001');
    assert.equal(attrs['slurm.array.job_id'], '1000');
    assert.equal(attrs['slurm.array.task_id'], '3');
    assert.equal(attrs['slurm.array.count'], 8);
    assert.equal(attrs['slurm.restart_count'], 0);
    assert.equal(attrs['slurm.nnodes'], 2);
    assert.equal(attrs['slurm.ntasks'], 16);
    assert.equal(attrs['slurm.partition'], 'batch');
    assert.equal(attrs['slurm.cluster.name'], 'eos');
    assert.equal(attrs['slurm.head_node.name'], undefined, 'inside a step');
    assert.equal(attrs['slurm.job.user'], undefined);
    assert.match(String(attrs['nv.dl.job.uuid']), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // every task of one array job shares the job identity
    const sibling = detectSlurm({ SLURM_JOB_ID: '1002', SLURM_ARRAY_JOB_ID: '1000', SLURM_ARRAY_TASK_ID: '4', SLURM_CLUSTER_NAME: 'eos' });
    assert.equal(sibling['nv.dl.job.uuid'], attrs['nv.dl.job.uuid']);
  });

  it('derives plain-job defaults and the head node outside a step', () => {
    const attrs = detectSlurm({ SLURM_JOB_ID: '55', SLURMD_NODENAME: 'node-9', SLURM_JOB_PARTITION: 'gpu', SLURM_PARTITION: 'other' });
    assert.equal(attrs['slurm.job.id'], '55');
    assert.equal(attrs['slurm.array.job_id'], '55');
    assert.equal(attrs['slurm.array.task_id'], '0');
    assert.equal(attrs['slurm.array.count'], 1);
    assert.equal(attrs['slurm.head_node.name'], 'node-9');
    assert.equal(attrs['slurm.partition'], 'gpu');
  });

  it('builds RFC 4122 version-5 UUIDs', () => {
    // the Python documentation's example: uuid5(NAMESPACE_DNS, 'python.org')
    assert.equal(uuidV5('python.org', '6ba7b810-9dad-11d1-80b4-00c04fd430c8'), '886313e1-3b8a-5372-9b90-0c9aee199e5d');
  });

  it('detects nothing without SLURM_JOB_ID', () => {
    assert.deepEqual(detectSlurm({ SLURM_ARRAY_JOB_ID: '1' }), {});
  });
});

describe('OTEL_RESOURCE_ATTRIBUTES', () => {
  it('parses percent-encoded values, skips malformed segments and keeps the last duplicate', () => {
    const attrs = parseOtelResourceAttributes(' team = rl%2Cinfra ,bad,=x,nemo.run.id=exp%2F2026-01%2Cseed%3D7,team=core,slurm.nnodes=4,raw=100%');
    assert.deepEqual(attrs, { team: 'core', 'nemo.run.id': 'exp/2026-01,seed=7', 'slurm.nnodes': 4, raw: '100%' });
  });

  it('round-trips values containing commas and equals signs', () => {
    const attrs = { 'nemo.run.id': 'exp/2026-01,seed=7', rank: 3, ok: true };
    assert.deepEqual(parseOtelResourceAttributes(formatOtelResourceAttributes(attrs)), { 'nemo.run.id': 'exp/2026-01,seed=7', rank: '3', ok: 'true' });
  });
});

describe('resolveResourceAttributes', () => {
  const config = { serviceName: 'nemo-gym/agent', runId: 'run-1', user: 'alice', wandbEntity: '', wandbProject: 'p' };

  it('applies caller > config > OTEL_RESOURCE_ATTRIBUTES > detected > defaults', async () => {
    const attrs = await resolveResourceAttributes({
      config,
      env: { ...BASE, SLURM_JOB_ID: '9', CUDA_VISIBLE_DEVICES: '0,1', OTEL_RESOURCE_ATTRIBUTES: 'host.gpu.count=8,service.name=from-env,team=env,slurm.job.id=inherited' },
      resourceAttributes: { team: 'caller', 'service.name': 'caller-svc' },
      resourceAttributeDefaults: { team: 'default', region: 'us', 'host.name': 'default-host' },
      detect: NO_K8S,
    });
    assert.equal(attrs['service.name'], 'caller-svc');
    assert.equal(attrs['team'], 'caller');
    assert.equal(attrs['region'], 'us');
    assert.equal(attrs['host.name'], hostname());
    assert.equal(attrs['host.gpu.count'], '8');
    assert.equal(attrs['slurm.job.id'], 'inherited');
    assert.equal(attrs['slurm.job.id.raw'], '9');
    assert.equal(attrs['service.version'], LENS_VERSION);
    assert.equal(attrs['nemo.run.id'], 'run-1');
    assert.equal(attrs['nemo.user.id'], 'alice');
    assert.equal(attrs['wandb.project'], 'p');
    assert.equal(attrs['wandb.entity'], undefined);
  });

  it('lets the configured service name win over OTEL_RESOURCE_ATTRIBUTES', async () => {
    const attrs = await resolveResourceAttributes({ config, env: { ...BASE, OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-env' }, detect: NO_K8S });
    assert.equal(attrs['service.name'], 'nemo-gym/agent');
  });
});
