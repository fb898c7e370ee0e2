/**
 * `collectRollouts()`: the orchestration of a collection run: prepare (read,
 * materialize or resume) → dispatch `/run` → append rows and failures → aggregate. Pure stages
 * live in their own modules; this file only wires them.
 * @module
 */
import { existsSync } from 'node:fs';
import { createHttpClient } from '@gym/server/internal/http/client.js';
import { socketsFor } from '@gym/server/internal/http/connection-budget.js';
import { createAbortFanout } from './abort-fanout.js';
import { attachEvidence } from '../evidence/attach.js';
import { CaptureStore } from '@gym/server/internal/evidence/capture-store.js';
import { readEvidenceSettings } from '@gym/server/internal/evidence/settings.js';
import { declaredRolloutId } from '@gym/server/internal/protocol/rollout-id.js';
import { dispatchAll } from './dispatch.js';
import { collateDatasets } from './datasets.js';
import { agentUrls, chooseAgent } from './environment.js';
import { RolloutAgentError, RolloutFlagError, ROLLOUT_WARNINGS } from './errors.js';
import { loadPromptConfig } from './prompt-config.js';
import { inputLineFailure } from './input-rows.js';
import { describeMalformed } from './jsonl.js';
import { untranslatableOutputRegexes } from './output-regex-check.js';
import { prepareRun } from './prepare-run.js';
import { createProgress } from './progress.js';
import { maxRolloutAttempts } from './resume.js';
import { openJsonlAppender, readJsonlFile, ROLLOUT_FLOAT_KEYS, rolloutPaths } from './rollout-files.js';
import { runRollout } from './run-rollout.js';
import { writeRunMetrics } from './run-metrics.js';
import { rolloutKey } from './types.js';
import type { RolloutKey } from './types.js';
import type { RequestInstrumentation } from '@gym/server/internal/http/instrumentation.js';
import type { AgentAggregateMetrics } from '@gym/server/internal/reward-stats/aggregate-metrics.js';
import type { CollectionEnvironment } from './environment.js';
import type { MaterializeOptions } from './materialize.js';
import type { ProgressSink } from './progress.js';
import type { RolloutPlan } from './resume.js';
import type { AppendLosses, JsonlAppender, RolloutPaths } from './rollout-files.js';

/** Options of {@link collectRollouts}. */
export interface CollectOptions extends Omit<MaterializeOptions, 'defaultAgent'> {
  environment: CollectionEnvironment;
  /** Output rollouts JSONL; the other files are named after its stem. */
  output: string;
  /** Input JSONL; default the agents' datasets of type `split`, looked up with `resolvePath`. */
  input?: string;
  /** Dataset type to collate when there is no `input` (`example`, `train`, `validation`, `benchmark`). Default `example`. */
  split?: string;
  /** Path of a prompt config (resolved with `resolvePath`) that builds every row's input. */
  promptConfig?: string;
  /** Agent for rows without `agent_ref`; default the only agent instance. */
  agent?: string;
  /** Most `/run` calls in flight; default unbounded. */
  concurrency?: number;
  resume?: boolean;
  strictInput?: boolean;
  disableAggregation?: boolean;
  /** Attempts per pair before resume gives up. Default `NEMO_GYM_MAX_ROLLOUT_ATTEMPTS` or 3. */
  maxAttempts?: number;
  /** Turns a config-relative path (the dataset's `jsonl_fpath`) into a readable one. Default identity. */
  resolvePath?: (path: string) => string;
  /** Stop starting rollouts; in-flight ones get `drainTimeoutMs` to finish. */
  stopSignal?: AbortSignal;
  /** Abort in-flight rollouts now (nothing is written for them). */
  abandonSignal?: AbortSignal;
  /** Default 10 000 ms. */
  drainTimeoutMs?: number;
  progress?: ProgressSink;
  onInfo?: (line: string) => void;
  onWarning?: (line: string) => void;
  /** Telemetry of the HTTP client (CLIENT spans, `traceparent`); none when telemetry is off. */
  instrument?: RequestInstrumentation;
}

/** Outcome of a run. */
export interface CollectResult {
  paths: RolloutPaths;
  /** Materialized pairs, and how the plan treated them. */
  total: number;
  plan: Omit<RolloutPlan, 'pending'> & { pending: number };
  succeeded: number;
  failed: number;
  notPersisted: number;
  abandoned: number;
  /** Successful rollouts whose row could not be written (a full disk): not complete, `--resume` runs them again. */
  unwritten: number;
  /** Records the results file and the failures sidecar could not take. */
  losses: { output: AppendLosses; failures: AppendLosses };
  /** True when `stopSignal` fired before every pending rollout was started. */
  interrupted: boolean;
  /** Pairs with neither a successful row nor a terminal failure: what `--resume` (or a higher attempt limit) would still run. */
  incomplete: number;
  /** Undefined with `disableAggregation`, when interrupted, or with no successful row. */
  metrics?: AgentAggregateMetrics[];
  /** Rollout evidence on: where the captures are and the disk they use for this run's rollouts. */
  evidence?: { captureDir: string; files: number; bytes: number };
}

/**
 * Collects rollouts against running servers. Failed rollouts go to the failures sidecar; the run
 * never aborts because of one. Throws only on user errors found before dispatch.
 * @example
 * const result = await collectRollouts({ environment, output: 'results/run.jsonl', numRepeats: 4, concurrency: 64 });
 */
export async function collectRollouts(options: CollectOptions): Promise<CollectResult> {
  const info = options.onInfo ?? (() => undefined);
  const warn = options.onWarning ?? (() => undefined);
  const agents = agentUrls(options.environment.instances);
  const defaultAgent = chooseAgent(agents, options.agent, false);
  const resolvePath = options.resolvePath ?? ((p: string) => p);
  const input = options.input;
  if (input !== undefined && options.split !== undefined) {
    throw new RolloutFlagError(`--split ${options.split} and --input both choose the input rows: pass one of them.`);
  }
  // a resumed run reuses its materialized rows, which already carry the prompt
  const materialized = rolloutPaths(options.output).materializedInputs;
  const resuming = options.resume === true && existsSync(materialized);
  const chosenInput = input !== undefined ? `--input ${input}` : options.split !== undefined ? `--split ${options.split}` : undefined;
  if (resuming && chosenInput !== undefined) warn(`--resume continues from ${materialized}, the rows as first run; ${chosenInput} is not read again`);
  const prompt = options.promptConfig === undefined || resuming ? undefined : loadPromptConfig(resolvePath(options.promptConfig), options.promptConfig);
  const readInput = () => {
    // the datasets of every agent, or only those of the agent asked for
    const collated = collateDatasets(options.environment.config, {
      split: options.split ?? 'example',
      agents: options.agent === undefined ? [...agents.keys()] : [options.agent],
      resolvePath,
      promptInput: prompt !== undefined,
      strict: options.strictInput === true,
    });
    info(`input: ${collated.used.map((d) => `${d.agent}/${d.name} (${d.type}${d.numRepeats > 1 ? `, ×${d.numRepeats}` : ''})`).join(', ')}`);
    return collated;
  };
  const prepared = prepareRun({
    ...options,
    input,
    readInput,
    defaultAgent,
    ...(prompt === undefined ? {} : { prompt }),
    onWarning: warn,
    maxAttempts: options.maxAttempts ?? maxRolloutAttempts(),
  });
  for (const m of prepared.malformed)
    warn(`${m.input ? ROLLOUT_WARNINGS.malformedInput : ROLLOUT_WARNINGS.malformedOutput}: skipped ${m.lines.length} malformed line(s) of ${m.file}: ${describeMalformed(m.lines)}`);
  for (const line of untranslatableOutputRegexes(prepared.plan.pending))
    warn(`${ROLLOUT_WARNINGS.untranslatableOutputRegex}: ${line}; a grader running it with Python's semantics fails those rows' /verify`);
  const unknown = [...new Set(prepared.plan.pending.map((r) => r.agent_ref.name).filter((n) => !agents.has(n)))];
  if (unknown.length > 0) {
    throw new RolloutAgentError('GYM_ROLLOUT_AGENT_UNKNOWN', `Rows name agent(s) ${unknown.join(', ')} that no server runs. Agent instances: ${[...agents.keys()].join(', ') || '(none)'}.`);
  }
  const { paths, plan } = prepared;
  // rollout evidence: decided once; off, a rollout pays one undefined check
  const evidence = readEvidenceSettings(options.environment.config);
  const captures = evidence.enabled ? new CaptureStore(evidence.captureDir) : undefined;
  const capturedIds: string[] = [];
  info(
    `${prepared.resumed ? 'resuming' : 'collecting'}: ${prepared.rows.length} rollouts, ${plan.pending.length} to run (${plan.succeeded} done, ${plan.terminal} terminal, ${plan.exhausted} out of attempts)`,
  );

  const concurrency = options.concurrency;
  // one socket per rollout in flight while the open-file budget allows, then /run calls pipelined on
  // them: 16k sockets into one agent leave it no descriptors for its own upstreams (docs/http.md)
  const http = createHttpClient({ ...socketsFor(concurrency ?? Math.max(plan.pending.length, 1)), instrument: options.instrument });
  const outputs = openJsonlAppender(paths.output, { replace: !prepared.resumed, floatKeys: ROLLOUT_FLOAT_KEYS });
  const failures = openJsonlAppender(paths.failures, { replace: !prepared.resumed, floatKeys: ROLLOUT_FLOAT_KEYS });
  for (const m of prepared.malformed) if (!prepared.resumed && m.input) for (const line of m.lines) failures.append(inputLineFailure(m.file, line));
  const progress = createProgress({ sink: options.progress ?? { write: () => undefined, isTty: false }, total: plan.pending.length });
  const inFlight = new AbortController();
  // one signal per rollout: the shared one would collect a listener per request in flight
  const rolloutSignals = createAbortFanout(inFlight.signal);
  const counts = { succeeded: 0, failed: 0, notPersisted: 0, abandoned: 0, unwritten: 0 };
  const warned = new Set<string>();
  const warnUnwritten = (file: JsonlAppender) => {
    if (warned.has(file.path)) return;
    warned.add(file.path);
    warn(`${ROLLOUT_WARNINGS.unwritten}: a record could not be written to ${file.path}: ${file.losses().last?.reason ?? 'write failed'}; the run goes on, and the summary counts what was lost`);
  };
  const succeededKeys = new Set(prepared.history.succeeded);
  // failures the agent marked terminal (or rows it refused) are done: --resume would not send them again
  const terminalKeys = new Set<RolloutKey>();
  let stopped = options.stopSignal?.aborted === true;
  const onStop = () => void (stopped = true);
  options.stopSignal?.addEventListener('abort', onStop, { once: true });
  try {
    const dispatched = dispatchAll(plan.pending, {
      concurrency,
      shouldStop: () => stopped,
      run: async (row) => {
        progress.started();
        const rolloutId = captures === undefined ? undefined : declaredRolloutId(row);
        // a capture left by an earlier attempt with the same id would be joined to this one
        if (rolloutId !== undefined) {
          captures!.clear(rolloutId);
          capturedIds.push(rolloutId);
        }
        const outcome = await rolloutSignals.run((signal) => runRollout(http, agents.get(row.agent_ref.name)!, row, signal));
        if (rolloutId !== undefined && (outcome.status === 'ok' || outcome.status === 'failed')) attachEvidence(outcome.record, captures!, rolloutId);
        if (outcome.status === 'ok') {
          // a row that could not be written is not done: --resume runs its rollout again
          if (outputs.append(outcome.record)) {
            succeededKeys.add(rolloutKey(row)!);
            counts.succeeded++;
          } else {
            counts.unwritten++;
            warnUnwritten(outputs);
          }
        } else if (outcome.status === 'failed') {
          if (!failures.append(outcome.record)) warnUnwritten(failures);
          counts.failed++;
          if (outcome.record['_ng_failure_terminal'] === true) terminalKeys.add(rolloutKey(row)!);
        } else if (outcome.status === 'not_persisted') counts.notPersisted++;
        else counts.abandoned++;
        progress.finished(outcome.status === 'ok' || outcome.status === 'not_persisted' ? 'ok' : outcome.status === 'failed' ? 'failed' : 'abandoned');
      },
    });
    await drain(dispatched, options, inFlight);
  } finally {
    options.stopSignal?.removeEventListener('abort', onStop);
    rolloutSignals.close();
    progress.stop();
    outputs.close();
    failures.close();
  }

  const incomplete = prepared.rows.filter((r) => {
    const key = rolloutKey(r)!;
    return !succeededKeys.has(key) && !prepared.history.terminal.has(key) && !terminalKeys.has(key);
  }).length;
  const result: CollectResult = {
    paths,
    total: prepared.rows.length,
    plan: { ...plan, pending: plan.pending.length },
    ...counts,
    interrupted: stopped,
    incomplete,
    losses: { output: outputs.losses(), failures: failures.losses() },
  };
  if (captures !== undefined) result.evidence = { captureDir: captures.root, ...captures.usage(capturedIds) };
  try {
    if (options.disableAggregation !== true && !stopped) {
      const rows = readJsonlFile(paths.output).lines.map((l) => l.value);
      if (rows.length > 0) result.metrics = await writeRunMetrics({ rows, inputs: prepared.rows, path: paths.aggregateMetrics, http, agents, onWarning: warn });
    }
  } finally {
    await http.close();
  }
  return result;
}

/** Waits for dispatch; once stopped, gives in-flight rollouts `drainTimeoutMs` (or until abandoned) before aborting them. */
async function drain(dispatched: Promise<unknown>, options: CollectOptions, inFlight: AbortController): Promise<void> {
  const abandon = () => inFlight.abort();
  options.abandonSignal?.addEventListener('abort', abandon, { once: true });
  if (options.abandonSignal?.aborted === true) abandon();
  let timer: NodeJS.Timeout | undefined;
  const onStop = () => {
    timer = setTimeout(abandon, options.drainTimeoutMs ?? 10_000);
    timer.unref();
  };
  if (options.stopSignal?.aborted === true) onStop();
  else options.stopSignal?.addEventListener('abort', onStop, { once: true });
  try {
    await dispatched;
  } finally {
    clearTimeout(timer);
    options.stopSignal?.removeEventListener('abort', onStop);
    options.abandonSignal?.removeEventListener('abort', abandon);
  }
}
