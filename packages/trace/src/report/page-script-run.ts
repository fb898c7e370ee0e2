/**
 * The report's run-level view (inlined into the page script): the diagnosis, rollouts over time,
 * the histogram of rollout durations, event-loop utilization per process over the run's time
 * axis and memory over time, drawn as inline SVG built with DOM calls (no markup strings).
 * Plain ES2017, no template literals; relies on `el`, `add` and `ms` of the page script.
 * @module
 */

/** Functions `runView(run)` and its chart helpers. */
export const RUN_VIEW_SCRIPT = String.raw`
var SVGNS = 'http://www.w3.org/2000/svg';
function sv(tag, attrs) { var e = document.createElementNS(SVGNS, tag); Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, String(attrs[k])); }); return e; }
function svgText(x, y, text, anchor) { var t = sv('text', { x: x, y: y, 'text-anchor': anchor || 'start', 'class': 'ax' }); t.textContent = text; return t; }
var CW = 800, CH = 130, PL = 66, PR = 8, PT = 8, PB = 20;
function frame(label, id) { var s = sv('svg', { viewBox: '0 0 ' + CW + ' ' + CH, role: 'img', 'aria-label': label, id: id, 'class': 'chart' }); return s; }
function timeAxis(s, endMs) { [0, 0.25, 0.5, 0.75, 1].forEach(function (f) { s.appendChild(svgText(PL + f * (CW - PL - PR), CH - 5, ms(endMs * f), f === 0 ? 'start' : f === 1 ? 'end' : 'middle')); }); }
function yAxis(s, max, fmt) { s.appendChild(svgText(PL - 4, PT + 9, fmt(max), 'end')); s.appendChild(svgText(PL - 4, CH - PB, fmt(0), 'end')); s.appendChild(sv('line', { x1: PL, y1: CH - PB, x2: CW - PR, y2: CH - PB, 'class': 'axis' })); }
function xOf(f, left) { var l = left === undefined ? PL : left; return l + f * (CW - l - PR); }
function yOf(v, max) { return CH - PB - (max > 0 ? v / max : 0) * (CH - PB - PT); }
function timelineChart(t, endMs) {
  var s = frame('rollouts over time: in flight, started and finished per ' + ms(t.binMs), 'run-timeline'), n = t.inFlight.length, max = 1;
  t.inFlight.concat(t.started, t.finished).forEach(function (v) { if (v > max) max = v; });
  yAxis(s, max, String); timeAxis(s, endMs);
  var w = (CW - PL - PR) / n;
  t.started.forEach(function (v, i) { if (v > 0) s.appendChild(sv('rect', { x: xOf(i / n), y: yOf(v, max), width: Math.max(1, w / 2 - 0.5), height: CH - PB - yOf(v, max), 'class': 'started' })); });
  t.finished.forEach(function (v, i) { if (v > 0) s.appendChild(sv('rect', { x: xOf(i / n) + w / 2, y: yOf(v, max), width: Math.max(1, w / 2 - 0.5), height: CH - PB - yOf(v, max), 'class': 'finished' })); });
  var pts = t.inFlight.map(function (v, i) { return xOf((i + 0.5) / n).toFixed(1) + ',' + yOf(v, max).toFixed(1); }).join(' ');
  s.appendChild(sv('polyline', { points: pts, 'class': 'inflight' }));
  return s;
}
function histogramChart(d) {
  var s = frame('histogram of rollout durations', 'run-durations'), n = d.counts.length, max = 1;
  d.counts.forEach(function (v) { if (v > max) max = v; });
  yAxis(s, max, String);
  [0, 0.5, 1].forEach(function (f) { s.appendChild(svgText(xOf(f), CH - 5, ms(d.binMs * n * f), f === 0 ? 'start' : f === 1 ? 'end' : 'middle')); });
  var w = (CW - PL - PR) / n;
  d.counts.forEach(function (v, i) { var r = sv('rect', { x: xOf(i / n) + 0.5, y: yOf(v, max), width: Math.max(1, w - 1), height: CH - PB - yOf(v, max), 'class': 'hist' }); var tt = sv('title'); tt.textContent = ms(d.binMs * i) + ' \u2013 ' + ms(d.binMs * (i + 1)) + ': ' + v + ' rollouts'; r.appendChild(tt); s.appendChild(r); });
  return s;
}
// One strip per process: utilization 0 (pale) to 1 (deep red) along the run's time axis.
function eluColor(u) { var x = Math.max(0, Math.min(1, u)); var r = Math.round(235 - 40 * x), g = Math.round(240 - 190 * x), b = Math.round(235 - 190 * x); return 'rgb(' + r + ',' + g + ',' + b + ')'; }
var SL = 130; // room for process names left of the strips
var LABEL_CHARS = 19; // what SL holds at the axis font: longer names keep their two ends
function fitLabel(name, n) { if (name.length <= n) return name; var head = Math.ceil((n - 1) / 2); return name.slice(0, head) + '\u2026' + name.slice(name.length - (n - 1 - head)); }
function saturationStrips(list, endMs) {
  var rowH = 18, h = list.length * rowH + PB + 4, s = sv('svg', { viewBox: '0 0 ' + CW + ' ' + h, role: 'img', 'aria-label': 'event-loop utilization per process over the run', id: 'run-saturation', 'class': 'chart' });
  list.forEach(function (p, i) {
    var y = 2 + i * rowH, g = sv('g', { 'class': 'sat-row', 'data-process': p.process });
    var label = svgText(SL - 6, y + 12, fitLabel(svc(p.process), LABEL_CHARS), 'end'); g.appendChild(label);
    var full = sv('title'); full.textContent = svc(p.process); label.appendChild(full);
    g.appendChild(sv('rect', { x: SL, y: y, width: CW - SL - PR, height: rowH - 4, 'class': 'sat-bg' }));
    p.samples.forEach(function (smp) {
      var x0 = xOf(endMs > 0 ? smp[0] / endMs : 0, SL), x1 = xOf(endMs > 0 ? smp[1] / endMs : 1, SL);
      var r = sv('rect', { x: x0, y: y, width: Math.max(1, x1 - x0), height: rowH - 4, fill: eluColor(smp[2]) });
      var tt = sv('title'); tt.textContent = svc(p.process) + ': ' + Math.round(smp[2] * 100) + '% busy, ' + ms(smp[0]) + ' \u2013 ' + ms(smp[1]); r.appendChild(tt); g.appendChild(r);
    });
    s.appendChild(g);
  });
  var axisY = list.length * rowH + 4;
  [0, 0.5, 1].forEach(function (f) { s.appendChild(svgText(xOf(f, SL), axisY + 12, ms(endMs * f), f === 0 ? 'start' : f === 1 ? 'end' : 'middle')); });
  return s;
}
function mib(b) { return (b / 1048576).toFixed(b >= 1048576 * 100 ? 0 : 1) + ' MiB'; }
function memoryChart(m, endMs) {
  var s = frame('memory over time (' + m.what + ')', 'run-memory'), max = 1;
  m.series.forEach(function (se) { se.points.forEach(function (p) { if (p[1] > max) max = p[1]; }); });
  yAxis(s, max, mib); timeAxis(s, endMs);
  m.series.forEach(function (se, i) {
    var pts = se.points.map(function (p) { return xOf(endMs > 0 ? Math.min(1, p[0] / endMs) : 0).toFixed(1) + ',' + yOf(p[1], max).toFixed(1); }).join(' ');
    // a process sampled once in the run's window is a dot: a polyline of one point draws nothing
    var one = se.points.length === 1 ? se.points[0] : null;
    var line = one ? sv('circle', { cx: xOf(endMs > 0 ? Math.min(1, one[0] / endMs) : 0).toFixed(1), cy: yOf(one[1], max).toFixed(1), r: 3, 'class': 'mem mem-' + (i % 6) }) : sv('polyline', { points: pts, 'class': 'mem mem-' + (i % 6) });
    var tt = sv('title'); tt.textContent = svc(se.name); line.appendChild(tt); s.appendChild(line);
  });
  return s;
}
function chartBox(title, note, chart, keys) {
  var box = add(el('div', 'chart-box'), el('h3', null, title));
  if (note) box.appendChild(el('div', 'note', note));
  box.appendChild(chart);
  if (keys) { var l = el('div', 'legend'); keys.forEach(function (k) { l.appendChild(add(el('span'), el('i', k[0]), document.createTextNode(k[1]))); }); box.appendChild(l); }
  return box;
}
function runView(run, rowKind) {
  var sec = el('section', 'run-view'); sec.id = 'run-view';
  add(sec, el('h2', null, 'The run at a glance'), add(el('div', 'diagnosis'), el('b', null, 'Diagnosis: '), document.createTextNode(run.diagnosis)));
  var grid = el('div', 'charts');
  grid.appendChild(chartBox(rowKind === 'rollout' ? 'Rollouts over time' : 'Traces over time', 'per ' + ms(run.timeline.binMs), timelineChart(run.timeline, run.endMs), [['key-inflight', 'in flight'], ['key-started', 'started'], ['key-finished', 'finished']]));
  grid.appendChild(chartBox('Rollout durations', 'bins of ' + ms(run.durations.binMs), histogramChart(run.durations), null));
  sec.appendChild(grid);
  if (run.utilization.length) sec.appendChild(chartBox('Event-loop utilization per process', 'pale = idle, deep red = busy (nodejs.eventloop.utilization)', saturationStrips(run.utilization, run.endMs), null));
  else sec.appendChild(el('div', 'note', run.saturationRecorded ? 'No event-loop utilization samples over the run.' : 'No saturation metrics recorded (event-loop utilization, delay, GC): the processes wrote no metric lines.'));
  if (run.memory.series.length) sec.appendChild(chartBox('Memory over time', run.memory.what, memoryChart(run.memory, run.endMs), run.memory.series.map(function (se, i) { return ['mem-key-' + (i % 6), svc(se.name)]; })));
  return sec;
}
`;
