/**
 * The report's stylesheet: system fonts, high-contrast text, one light colour per time category
 * (the same classes colour the legend, the split bars and the waterfall bars).
 * @module
 */

/** Light fill per time category, shared by legend, split bars and waterfall. */
export const CATEGORY_COLORS: Readonly<Record<string, string>> = {
  model: '#8cb9f0',
  tools: '#94d69a',
  verify: '#c7a4ea',
  seed: '#86d3cd',
  agent: '#f4c875',
  caller_queue: '#f29b8f',
  connect: '#e7b8dd',
  transit: '#f7a35c',
  return: '#b9c98a',
  retries: '#d9534f',
  network: '#b6c2d1',
  collector_send: '#c9b38f',
  collector_return: '#d8cbb2',
  unaccounted: '#dedede',
  callee: '#ffffff',
};

const MEM_COLORS = ['#0969da', '#bc4c00', '#1a7f37', '#8250df', '#cf222e', '#57606a'];

const categoryRules = Object.entries(CATEGORY_COLORS)
  .map(([c, color]) => `.cat-${c}{background:${color}}`)
  .join('\n');

/** The CSS of the page (inlined in a `<style>` element). */
export const PAGE_STYLE = `
:root{color-scheme:light;--fg:#1b1f24;--muted:#57606a;--line:#d8dee4;--bg:#fff;--panel:#f6f8fa;--accent:#0969da;--crit:#bc4c00;--err:#cf222e}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1280px;margin:0 auto;padding:24px 28px 64px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:32px 0 10px}
.muted{color:var(--muted)}.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:16px 0}
.card{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:8px 14px;min-width:120px}
.card b{display:block;font-size:19px}.card span{color:var(--muted);font-size:12px}
.card.bad b{color:var(--err)}
.split{display:flex;height:22px;border-radius:5px;overflow:hidden;border:1px solid var(--line);background:#fafafa}
.split div{height:100%;min-width:0}
.legend{display:flex;flex-wrap:wrap;gap:6px 16px;margin:8px 0 0;font-size:12.5px}
.legend i{display:inline-block;width:11px;height:11px;border-radius:2px;margin-right:5px;vertical-align:-1px;border:1px solid rgba(0,0,0,.15)}
.legend .crit-key{background:#fff;border:2px solid var(--crit)}
${categoryRules}
table{border-collapse:collapse;width:100%}
th,td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{background:var(--panel);font-weight:600;position:sticky;top:0;white-space:nowrap}
th.sortable{cursor:pointer;user-select:none}th.sortable:hover{color:var(--accent)}
th[aria-sort=ascending]::after{content:" \\25B2";font-size:10px}th[aria-sort=descending]::after{content:" \\25BC";font-size:10px}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tr.row{cursor:pointer}tr.row:hover,tr.row:focus{background:#eef4fc;outline:none}tr.row.open{background:#e3eefb}
tr.detail>td{background:#fbfcfd;padding:12px 14px 18px}
.badge{display:inline-block;padding:0 7px;border-radius:10px;font-size:12px;border:1px solid var(--line)}
.badge.error{color:#fff;background:var(--err);border-color:var(--err)}.badge.no_verify,.badge.incomplete{background:#fff8c5;border-color:#d4a72c}
.badge.ok{background:#dafbe1;border-color:#4ac26b}
input[type=search]{font:inherit;padding:6px 10px;border:1px solid var(--line);border-radius:6px;width:320px;max-width:100%}
.toolbar{display:flex;gap:12px;align-items:center;margin-bottom:8px}
.wf{border:1px solid var(--line);border-radius:6px;background:#fff;margin-top:12px}
.wf-row{display:grid;grid-template-columns:minmax(220px,34%) 1fr;align-items:center;min-height:22px;border-bottom:1px solid #f0f2f4;cursor:pointer}
.wf-row:hover{background:#f3f7fc}.wf-row.sel{background:#e3eefb}
.wf-head{cursor:default;font-size:11.5px;color:var(--muted);background:var(--panel)}
.wf-name{white-space:nowrap;overflow:hidden;text-overflow:ellipsis;padding:2px 8px;font-size:12.5px}
.wf-name .svc{color:var(--muted);margin-left:6px;font-size:11.5px}
.wf-name.crit .nm{font-weight:650}
.wf-track{position:relative;height:22px;margin-right:70px}
.wf-bar{position:absolute;top:4px;height:14px;border-radius:3px;min-width:2px;border:1px solid rgba(0,0,0,.18)}
.wf-bar.crit{border:2px solid var(--crit);top:3px;height:16px}
.wf-bar.err{box-shadow:inset 0 -3px 0 var(--err)}
.wf-dur{position:absolute;top:3px;font-size:11px;color:var(--muted);white-space:nowrap;padding-left:4px}
.wf-tick{position:absolute;top:3px;font-size:11px;transform:translateX(-50%)}
.panel{margin-top:10px;border:1px solid var(--line);border-radius:6px;padding:10px 12px;background:#fff}
.panel table td:first-child{color:var(--muted);width:220px;word-break:break-all}
.panel td{word-break:break-word;white-space:pre-wrap}
.note{font-size:12.5px;color:var(--muted);margin:6px 0}
.evidence{margin-top:14px;border-top:1px solid var(--line);padding-top:8px}.evidence h4{margin:10px 0 4px}
.ev-call,.ev-tool{border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:6px 0;background:#fff}.ev-head{font-weight:600}
.ev-io{display:grid;grid-template-columns:1fr 1fr;gap:10px}.ev-items{white-space:pre-wrap;word-break:break-word;margin:2px 0;font-size:12.5px;max-height:320px;overflow:auto}
.ev-finding,.ev-gap{font-size:13px;color:var(--err)}.ev-gap{color:#9a6700}
.wf-bar.phased{background:transparent;z-index:1}
.wf-ph{position:absolute;top:5px;height:12px;min-width:1px;pointer-events:none}
.wf-ph.cat-callee{background:repeating-linear-gradient(135deg,#fff 0 3px,#e9edf1 3px 6px)}
.legend .cat-callee{background:repeating-linear-gradient(135deg,#fff 0 3px,#c9d1d9 3px 6px)}
.diagnosis{background:#fff8e6;border:1px solid #e8c46a;border-radius:8px;padding:10px 14px;margin:8px 0 14px;font-size:14.5px}
.listing{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:8px 14px;margin:8px 0;font-size:13.5px}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(380px,1fr));gap:14px}
.chart-box{border:1px solid var(--line);border-radius:8px;padding:8px 12px 10px;margin-bottom:14px;background:#fff}
.chart-box h3{font-size:14px;margin:2px 0}
svg.chart{width:100%;height:auto;display:block}
svg .ax{font-size:11px;fill:#57606a}svg .axis{stroke:#d8dee4}
svg .started{fill:#8cb9f0}svg .finished{fill:#94d69a}svg .hist{fill:#c7a4ea}
svg .inflight{fill:none;stroke:#bc4c00;stroke-width:2}
svg .sat-bg{fill:#f6f8fa}
svg .mem{fill:none;stroke-width:2}
.key-inflight{background:#bc4c00}.key-started{background:#8cb9f0}.key-finished{background:#94d69a}
${[0, 1, 2, 3, 4, 5].map((i) => `svg .mem-${i}{stroke:${MEM_COLORS[i]}}.mem-key-${i}{background:${MEM_COLORS[i]}}`).join('\n')}
.dur-cell{display:flex;align-items:center;gap:8px;justify-content:flex-end}
.dur-track{display:inline-block;width:90px;height:8px;background:#eef1f4;border-radius:4px;overflow:hidden}
.dur-bar{display:block;height:100%;background:#8cb9f0}
`;
