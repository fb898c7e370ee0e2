/**
 * The report's script (inlined). It reads the embedded JSON and builds the page with DOM calls
 * only — `textContent`, never `innerHTML` — so span names and attribute values stay text.
 * Plain ES2017 in a string: no template literals inside, so this file needs no escaping.
 * @module
 */

import { EVIDENCE_SCRIPT } from './page-script-evidence.js';
import { RUN_VIEW_SCRIPT } from './page-script-run.js';

/** The JavaScript of the page (inlined in a `<script>` element after the data). */
export const PAGE_SCRIPT = String.raw`(function () {
'use strict';
var D = JSON.parse(document.getElementById('gym-trace-data').textContent);
var CATS = D.categories, LABELS = D.categoryLabels;
var app = document.getElementById('app');
function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined && text !== null) e.textContent = String(text); return e; }
function add(parent) { for (var i = 1; i < arguments.length; i++) if (arguments[i]) parent.appendChild(arguments[i]); return parent; }
function ms(v) {
  if (v === null || v === undefined || !isFinite(v)) return '-';
  var a = Math.abs(v), s = v < 0 ? '-' : '';
  if (a >= 60000) { var m = Math.floor(a / 60000); return s + m + 'm' + String(Math.round((a - m * 60000) / 1000)).padStart(2, '0') + 's'; }
  if (a >= 1000) return s + (a / 1000).toFixed(2) + 's';
  if (a >= 10) return s + Math.round(a) + 'ms';
  if (a >= 1) return s + a.toFixed(1) + 'ms';
  return a === 0 ? '0ms' : s + a.toFixed(2) + 'ms';
}
function pct(x) { return isFinite(x) ? (x * 100).toFixed(1) + '%' : '-'; }
function svc(s) { return s.indexOf('nemo-gym/') === 0 ? s.slice(9) : s; }
function splitBar(cats, wall) {
  var bar = el('div', 'split'); bar.setAttribute('role', 'img');
  var label = [];
  CATS.forEach(function (c) {
    var v = cats[c] || 0; if (v <= 0 || wall <= 0) return;
    var seg = el('div', 'cat-' + c); seg.style.width = (v / wall * 100) + '%';
    seg.title = LABELS[c] + ': ' + ms(v) + ' (' + pct(v / wall) + ')'; label.push(seg.title); bar.appendChild(seg);
  });
  bar.setAttribute('aria-label', label.join(', ') || 'no time attributed');
  return bar;
}
// Categories with time (all of them without numbers); CLIENT bars add the callee part of a hop.
function legend(cats, wall, withCrit) {
  var l = el('div', 'legend');
  CATS.forEach(function (c) {
    if (cats && !(cats[c] > 0)) return;
    var item = add(el('span'), el('i', 'cat-' + c));
    item.appendChild(document.createTextNode(cats ? LABELS[c] + ' ' + ms(cats[c] || 0) + ' (' + pct(wall > 0 ? (cats[c] || 0) / wall : NaN) + ')' : LABELS[c]));
    l.appendChild(item);
  });
  if (withCrit) { l.appendChild(add(el('span'), el('i', 'cat-callee'), document.createTextNode('callee (inside a CLIENT bar)'))); l.appendChild(add(el('span'), el('i', 'crit-key'), document.createTextNode('critical path'))); }
  return l;
}
// data-value carries the exact number behind a formatted one (tests compare it with stats)
function card(value, label, bad, id) { var c = add(el('div', 'card' + (bad ? ' bad' : '')), el('b', null, value), el('span', null, label)); if (id) { c.id = id; c.setAttribute('data-value', String(value)); } return c; }
// A sortable table: cols = [{key, label, num, fmt}]; rows are objects; onRow(tr, row) decorates rows.
function sortable(cols, rows, limit, onRow, initial) {
  var table = el('table'), thead = el('thead'), tbody = el('tbody'), htr = el('tr'), state = initial || { key: null, dir: 1 }, note = el('div', 'note');
  cols.forEach(function (c) {
    var th = el('th', 'sortable' + (c.num ? ' num' : ''), c.label); th.tabIndex = 0;
    function sort() {
      state.dir = state.key === c.key ? -state.dir : (c.num ? -1 : 1); state.key = c.key;
      Array.prototype.forEach.call(htr.children, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', state.dir > 0 ? 'ascending' : 'descending'); draw();
    }
    th.addEventListener('click', sort); th.addEventListener('keydown', function (e) { if (e.key === 'Enter') sort(); });
    if (state.key === c.key) th.setAttribute('aria-sort', state.dir > 0 ? 'ascending' : 'descending');
    htr.appendChild(th);
  });
  add(table, add(thead, htr), tbody);
  var view = rows;
  function draw() {
    var list = view.slice();
    if (state.key !== null) list.sort(function (a, b) { var x = a[state.key], y = b[state.key]; if (x === y) return 0; if (x === null) return 1; if (y === null) return -1; return (x < y ? -1 : 1) * state.dir; });
    tbody.textContent = '';
    list.slice(0, limit).forEach(function (r) {
      var tr = el('tr');
      cols.forEach(function (c) { var td = el('td', c.num ? 'num' : null); var v = c.fmt ? c.fmt(r[c.key], r) : r[c.key]; if (v instanceof Node) td.appendChild(v); else td.textContent = v === null || v === undefined ? '-' : String(v); if (c.num && r[c.key] !== null && r[c.key] !== undefined) td.setAttribute('data-value', String(r[c.key])); tr.appendChild(td); });
      tbody.appendChild(tr); if (onRow) onRow(tr, r, cols.length);
    });
    note.textContent = list.length > limit ? 'Showing ' + limit + ' of ' + list.length + ' rows; filter or sort to see others.' : list.length + ' rows';
  }
  return { node: add(el('div'), table, note), filter: function (fn) { view = rows.filter(fn); draw(); }, draw: draw };
}
function waterfall(det) {
  var box = el('div'), wf = el('div', 'wf'), panel = el('div', 'panel'), wall = det.wallMs > 0 ? det.wallMs : 1, selected = null;
  var head = add(el('div', 'wf-row wf-head'), el('div', 'wf-name', 'span (' + det.spans.length + ')'));
  var ticks = el('div', 'wf-track');
  [0, 0.25, 0.5, 0.75, 1].forEach(function (f) { var t = el('span', 'wf-tick', ms(det.wallMs * f)); t.style.left = (f * 100) + '%'; ticks.appendChild(t); });
  wf.appendChild(add(head, ticks));
  panel.appendChild(el('div', 'note', 'Hover or click a span for its details.'));
  function show(s) {
    panel.textContent = '';
    var t = el('table'), info = [['name', s.name], ['service', s.service], ['kind', s.kind], ['status', s.status + (s.statusMessage ? ': ' + s.statusMessage : '')], ['category', LABELS[s.category] || s.category], ['start offset', ms(s.offsetMs)], ['duration', ms(s.durationMs)], ['self time', ms(s.selfMs)], ['critical path', s.critical ? 'yes' : 'no'], ['span id', s.id]];
    if (s.flags.length) info.push(['flags', s.flags.join(', ')]);
    if (s.phases) info.push(['phases', s.phases.map(function (p) { return (p[0] === 'callee' ? 'callee' : LABELS[p[0]] || p[0]) + ' ' + ms(p[2]); }).join(', ')]);
    if (s.events.length) info.push(['events', s.events.join(', ')]);
    info.concat(s.attributes).forEach(function (kv, i) { var tr = add(el('tr'), el('td', i >= info.length ? 'mono' : null, kv[0]), el('td', i >= info.length ? 'mono' : null, kv[1])); t.appendChild(tr); });
    add(panel, el('b', null, s.name), el('div', 'note', s.attributes.length + ' attributes'), t);
  }
  det.spans.forEach(function (s) {
    var row = el('div', 'wf-row'); row.tabIndex = 0; row.setAttribute('data-span', s.id);
    var name = el('div', 'wf-name' + (s.critical ? ' crit' : '')); name.style.paddingLeft = (8 + s.depth * 14) + 'px';
    add(name, el('span', 'nm', s.name), el('span', 'svc', svc(s.service)));
    name.title = s.name + ' (' + s.service + ')';
    var track = el('div', 'wf-track'), bar = el('div', 'wf-bar ' + (s.phases ? 'phased' : 'cat-' + s.category) + (s.critical ? ' crit' : '') + (s.status === 'ERROR' ? ' err' : ''));
    var left = Math.max(0, Math.min(100, s.offsetMs / wall * 100)), width = Math.max(0, Math.min(100 - left, s.durationMs / wall * 100));
    bar.style.left = left + '%'; bar.style.width = width + '%';
    // a CLIENT bar with phases: its outline over one segment per phase
    track.appendChild(bar);
    if (s.phases) s.phases.forEach(function (p) {
      var seg = el('div', 'wf-ph cat-' + p[0]), pl = Math.max(0, Math.min(100, p[1] / wall * 100));
      seg.style.left = pl + '%'; seg.style.width = Math.max(0, Math.min(100 - pl, p[2] / wall * 100)) + '%';
      seg.setAttribute('data-phase', p[0]); track.appendChild(seg);
    });
    var dur = el('span', 'wf-dur', ms(s.durationMs)); dur.style.left = (left + width) + '%';
    add(row, name, add(track, dur));
    row.addEventListener('mouseenter', function () { if (!selected) show(s); });
    function pick() { if (selected) selected.classList.remove('sel'); selected = row; row.classList.add('sel'); show(s); }
    row.addEventListener('click', pick); row.addEventListener('keydown', function (e) { if (e.key === 'Enter') pick(); });
    wf.appendChild(row);
  });
  add(box, splitBar(det.categories, det.wallMs), legend(det.categories, det.wallMs, true), wf);
  if (det.omitted > 0) box.appendChild(el('div', 'note', det.omitted + ' more spans not included (raise --max-spans).'));
  return add(box, panel);
}
function render() {
  var s = D.summary, a = s.anomalies, anomalyTotal = 0;
  Object.keys(a).forEach(function (k) { anomalyTotal += a[k]; });
  var main = el('main');
  add(main, el('h1', null, 'gym trace report'), el('div', 'muted', (s.start || '?') + ' \u2192 ' + (s.end || '?') + '  \u00b7  generated ' + D.generatedAt + (D.inputs.length ? '  \u00b7  ' + D.inputs.join(', ') : '')));
  var sc = s.statusCounts, kind = D.rowKind === 'rollout' ? 'rollouts' : 'traces';
  add(main, add(el('div', 'cards'), card(s.rollouts, 'rollouts', false, 'card-rollouts'), card(sc.error, 'failed ' + kind, sc.error > 0, 'card-failed'), sc.incomplete ? card(sc.incomplete, 'incomplete ' + kind, true, 'card-incomplete') : null, D.rowKind === 'rollout' && sc.no_verify ? card(sc.no_verify, 'not verified', false, 'card-no-verify') : null, D.rowKind === 'rollout' ? null : card(s.traces, 'traces'), card(s.spans, 'spans', false, 'card-spans'), card(s.services.length, 'services'), card(s.errorSpans, 'error spans', s.errorSpans > 0), card(anomalyTotal, 'anomalies', anomalyTotal > 0), s.malformedLines ? card(s.malformedLines, 'malformed lines', true) : null));
  main.appendChild(el('div', 'note', 'Services: ' + s.services.map(svc).join(', ')));
  add(main, el('h2', null, 'Where the time went (' + ms(s.timeSplit.wallMs) + ' of ' + D.rowKind + ' wall time, along the critical path)'), splitBar(s.timeSplit.categories, s.timeSplit.wallMs), legend(s.timeSplit.categories, s.timeSplit.wallMs, false));
  var anomalyList = Object.keys(a).filter(function (k) { return a[k] > 0; }).map(function (k) { return k.replace(/_/g, ' ') + ': ' + a[k]; });
  if (anomalyList.length) main.appendChild(el('div', 'note', 'Anomalies \u2014 ' + anomalyList.join(', ') + ' (details: gym trace anomalies)'));
  main.appendChild(runView(D.run, D.rowKind));
  var L = D.listing, nDetail = Object.keys(D.details).length;
  main.appendChild(el('h2', null, (D.rowKind === 'rollout' ? 'Rollouts' : 'Traces') + ' (' + (L.capped ? L.listed + ' of ' + L.total : L.total) + ', slowest first)'));
  // a large run lists only the rows with a waterfall; say what they are and what was left out
  if (L.capped) {
    var listing = el('div', 'listing'); listing.id = 'listing';
    add(listing, el('b', null, L.listed + ' of ' + L.total + ' ' + kind + ' listed: '), document.createTextNode(L.picked.failed + ' failed, ' + L.picked.slowest + ' slowest, ' + L.picked.sample + ' a uniform sample. '), el('b', null, L.leftOut + ' not listed'), document.createTextNode(' (more than --max-rows ' + L.maxRows + '): every count, chart and statistic on this page still covers all ' + L.total + '.'));
    listing.setAttribute('data-left-out', String(L.leftOut));
    main.appendChild(listing);
  }
  var filter = el('input'); filter.type = 'search'; filter.placeholder = 'Filter by id, trace id or status'; filter.setAttribute('aria-label', 'filter');
  add(main, add(el('div', 'toolbar'), filter, el('span', 'note', 'Click a row for its waterfall. Full span detail for ' + nDetail + ' of ' + L.total + ' (' + L.picked.failed + ' failed, ' + L.picked.slowest + ' slowest, ' + L.picked.sample + ' sampled; --max-rollouts).')));
  var cols = [{ key: 'id', label: D.rowKind }, { key: 'traceId', label: 'trace', fmt: function (v) { return el('span', 'mono', v); } }, { key: 'startMs', label: 'start', num: true, fmt: ms }, { key: 'durationMs', label: 'duration', num: true, fmt: durationCell }, { key: 'reward', label: 'reward', num: true }, { key: 'status', label: 'status', fmt: function (v) { return el('span', 'badge ' + v, v.replace('_', ' ')); } }, { key: 'spans', label: 'spans', num: true }];
  if (L.capped) cols.push({ key: 'picked', label: 'listed as' });
  var maxDur = 0; D.rows.forEach(function (r) { if (r.durationMs > maxDur) maxDur = r.durationMs; });
  function durationCell(v) { var c = add(el('span', 'dur-cell'), el('span', 'dur-txt', ms(v))); var b = el('span', 'dur-bar'); b.style.width = (maxDur > 0 ? v / maxDur * 100 : 0) + '%'; return add(c, add(el('span', 'dur-track'), b)); }
  var list = sortable(cols, D.rows, 1000, function (tr, r, span) {
    tr.className = 'row'; tr.tabIndex = 0; tr.setAttribute('data-key', r.key);
    function toggle() {
      var next = tr.nextSibling;
      if (next && next.className === 'detail') { next.remove(); tr.classList.remove('open'); return; }
      var td = el('td'); td.colSpan = span;
      td.appendChild(r.detail ? waterfall(D.details[r.key]) : el('div', 'note', 'No span detail embedded for this ' + D.rowKind + ' (only ' + D.detailLimit + ' carry it; raise --max-rollouts).'));
      if (D.evidence && D.evidence[r.key]) td.appendChild(evidenceView(D.evidence[r.key]));
      tr.classList.add('open'); tr.parentNode.insertBefore(add(el('tr', 'detail'), td), tr.nextSibling);
    }
    tr.addEventListener('click', toggle); tr.addEventListener('keydown', function (e) { if (e.key === 'Enter') toggle(); });
  }, { key: 'durationMs', dir: -1 });
  filter.addEventListener('input', function () { var q = filter.value.trim().toLowerCase(); list.filter(function (r) { return !q || (r.id + ' ' + r.traceId + ' ' + r.status).toLowerCase().indexOf(q) >= 0; }); });
  list.draw(); main.appendChild(list.node);
  main.appendChild(el('h2', null, 'Span statistics (exact nearest-rank percentiles)'));
  var statCols = [{ key: 'name', label: 'span name' }, { key: 'count', label: 'count', num: true }, { key: 'errors', label: 'errors', num: true }, { key: 'p50', label: 'p50', num: true, fmt: ms }, { key: 'p95', label: 'p95', num: true, fmt: ms }, { key: 'p99', label: 'p99', num: true, fmt: ms }, { key: 'max', label: 'max', num: true, fmt: ms }, { key: 'totalSelfMs', label: 'total self time', num: true, fmt: ms }];
  var st = sortable(statCols, D.stats, 1000, function (tr, r) { tr.setAttribute('data-name', r.name); }); st.node.id = 'span-stats'; st.draw(); main.appendChild(st.node);
  app.textContent = ''; app.appendChild(main);
}
${RUN_VIEW_SCRIPT}
${EVIDENCE_SCRIPT}
render();
// the marker a test or a benchmark waits for: the page is drawn
document.documentElement.setAttribute('data-rendered', '');
})();`;
