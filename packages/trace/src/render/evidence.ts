/**
 * The evidence section under a rollout's span tree in `gym trace show`: the health verdict, each
 * captured model call (input and output items, tokens, finish reason), each tool call (arguments,
 * result, status, time) and the gaps — what could not be observed.
 * @module
 */
import { formatMs } from './format.js';
import type { RolloutEvidence } from '../evidence/rollout-evidence.js';

const tok = (v: number | null) => (v === null ? '?' : String(v));
const indent = (lines: string[], pad: string) => lines.flatMap((l) => l.split('\n').map((part) => pad + part));

/** Text (or Markdown) lines of one rollout's evidence. */
export function renderEvidence(e: RolloutEvidence | undefined, options: { markdown?: boolean } = {}): string {
  const h = (text: string) => (options.markdown === true ? `### ${text}` : `── ${text} ──`);
  if (e === undefined) return `${h('evidence')}\nno rollout evidence for this rollout in the --evidence files (run with ++observability_enabled=true)\n`;
  const lines: string[] = [h(`evidence of rollout ${e.rolloutId}`)];
  if (e.verdict !== null) {
    lines.push(`health: ${e.verdict.verdict}${e.verdict.unobserved.length > 0 ? ` (unobserved: ${e.verdict.unobserved.join(', ')})` : ''}`);
    for (const f of e.verdict.findings) lines.push(`  ! ${f.check} at ${f.locator}: ${f.detail}`);
  } else lines.push('health: not checked (run gym eval health-check on the rollouts file)');
  lines.push(`model calls: ${e.calls.length}`);
  e.calls.forEach((c, i) => {
    const status = c.errorCategory === null ? `status ${c.statusCode ?? '?'}` : `FAILED ${c.statusCode ?? '?'} ${c.errorCategory}`;
    lines.push(
      `  [${i + 1}] ${c.model ?? 'model ?'}  ${status}  finish ${c.finishReason ?? '?'}  tokens in ${tok(c.tokens.prompt)} / out ${tok(c.tokens.completion)}${c.tokens.reasoning ? ` (reasoning ${c.tokens.reasoning})` : ''}  ${c.durationMs === null ? '' : formatMs(c.durationMs)}`,
    );
    lines.push(`      call ${c.modelCallId || '?'}${c.invocationId === null ? '  (owned by no invocation)' : ''}${c.spanId === null ? '' : `  span ${c.spanId}`}`);
    lines.push('      input:', ...indent(c.input, '        '));
    lines.push('      output:', ...indent(c.output, '        '));
  });
  lines.push(`tool calls: ${e.tools.length}`);
  for (const t of e.tools) {
    lines.push(`  ${t.name ?? '?'} ${t.toolCallId}  ${t.status}  ${t.durationMs === null ? '' : formatMs(t.durationMs)}`);
    lines.push(...indent([`arguments: ${t.arguments}`, `result: ${t.output}`], '      '));
  }
  lines.push(e.gaps.length === 0 ? 'gaps: none' : `gaps: ${e.gaps.length}`);
  for (const g of e.gaps) lines.push(`  ${g.code}${g.invocationId === null ? '' : ` (${g.invocationId})`}${g.detail === null ? '' : `: ${g.detail}`}`);
  return options.markdown === true ? `${lines[0]}\n\n\`\`\`\n${lines.slice(1).join('\n')}\n\`\`\`\n` : `${lines.join('\n')}\n`;
}
