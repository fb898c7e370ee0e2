/**
 * The report's rollout-evidence section (inlined into the page script), drawn under a rollout's
 * waterfall when `gym trace report --evidence` embedded it: health verdict, captured model calls
 * with their input and output items, tool calls, gaps. All as text nodes.
 * Plain ES2017, no template literals; relies on `el`, `add` and `ms` of the page script.
 * @module
 */

/** The function `evidenceView(e)`. */
export const EVIDENCE_SCRIPT = String.raw`
function evidenceView(e) {
  var box = add(el('div', 'evidence'), el('h3', null, 'Rollout evidence ' + e.rolloutId));
  var v = e.verdict;
  var health = el('p', 'ev-health');
  health.appendChild(el('span', 'badge ' + (v === null ? 'incomplete' : v.verdict === 'healthy' ? 'ok' : v.verdict === 'unhealthy' ? 'error' : 'incomplete'), v === null ? 'not checked' : v.verdict));
  if (v !== null && v.unobserved.length > 0) health.appendChild(el('span', 'note', ' unobserved: ' + v.unobserved.join(', ')));
  box.appendChild(health);
  if (v !== null) v.findings.forEach(function (f) { box.appendChild(el('div', 'ev-finding', f.check + ' at ' + f.locator + ': ' + f.detail)); });
  box.appendChild(el('h4', null, 'Model calls (' + e.calls.length + ')'));
  e.calls.forEach(function (c, i) {
    var call = el('div', 'ev-call');
    var tok = function (x) { return x === null ? '?' : String(x); };
    call.appendChild(el('div', 'ev-head', '#' + (i + 1) + ' ' + (c.model || 'model ?') + ' · ' + (c.errorCategory === null ? 'status ' + c.statusCode : 'FAILED ' + c.statusCode + ' ' + c.errorCategory) + ' · finish ' + (c.finishReason || '?') + ' · tokens in ' + tok(c.tokens.prompt) + ' / out ' + tok(c.tokens.completion) + ' · ' + ms(c.durationMs)));
    call.appendChild(el('div', 'note mono', 'call ' + c.modelCallId + (c.spanId ? ' · span ' + c.spanId : '') + (c.invocationId === null ? ' · owned by no invocation' : '')));
    var io = el('div', 'ev-io');
    add(io, add(el('div'), el('b', null, 'input'), el('pre', 'ev-items', c.input.join('\n'))), add(el('div'), el('b', null, 'output'), el('pre', 'ev-items ev-output', c.output.join('\n'))));
    box.appendChild(add(call, io));
  });
  box.appendChild(el('h4', null, 'Tool calls (' + e.tools.length + ')'));
  e.tools.forEach(function (t) {
    box.appendChild(add(el('div', 'ev-tool'), el('div', 'ev-head', (t.name || '?') + ' · ' + t.status + ' · ' + ms(t.durationMs)), el('pre', 'ev-items', 'arguments: ' + t.arguments + '\nresult: ' + t.output)));
  });
  box.appendChild(el('h4', null, 'Gaps (' + e.gaps.length + ')'));
  if (e.gaps.length === 0) box.appendChild(el('div', 'note', 'none: every captured call is owned by an agent invocation'));
  e.gaps.forEach(function (g) { box.appendChild(el('div', 'ev-gap', g.code + (g.invocationId ? ' (' + g.invocationId + ')' : '') + (g.detail ? ': ' + g.detail : ''))); });
  return box;
}
`;
