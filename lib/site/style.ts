/**
 * The one colour vocabulary of the report, the index and docs/figures-and-browser.md: the word for
 * each comparison colour of SITE_CSS (`--agree`, `--differ`).
 */
export const COLOUR_WORDS = { agrees: 'blue', differs: 'orange' } as const;

/** The report's one stylesheet (report/style.css). Colours: the Okabe–Ito colour-blind-safe pair (blue for agreement, orange for a difference). */
export const SITE_CSS = `:root { --fg: #1b1b1b; --muted: #5b5b5b; --line: #d9d9d9; --bg-code: #f6f8fa; --agree: #0072b2; --agree-bg: #e3f0f8; --differ: #a45200; --differ-bg: #fdebd3; --warn-bg: #fff4d6; --warn-line: #e69f00; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 0 1.25rem 3rem; font: 16px/1.5 "Liberation Sans", "Open Sans", Arial, sans-serif; color: var(--fg); }
nav.site { padding: .6rem 0; border-bottom: 1px solid var(--line); margin-bottom: 1rem; font-size: .95rem; }
a { color: #0b5cad; }
h1, h2, h3 { line-height: 1.25; }
code, pre { font: 13.5px/1.45 "Liberation Mono", "DejaVu Sans Mono", monospace; }
:not(pre) > code { background: var(--bg-code); padding: 0 .2em; border-radius: 3px; }
pre { background: var(--bg-code); padding: .6rem .8rem; overflow-x: auto; border-radius: 4px; margin: .4rem 0; }
.source-file { color: var(--muted); font-size: .9rem; }
.notice { border: 2px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: 1rem 0; }
.notice.simulated { border-color: var(--warn-line); background: var(--warn-bg); font-size: 1.05rem; }
.badge { background: var(--warn-bg); border: 1px solid var(--warn-line); border-radius: 3px; padding: 0 .35em; font-size: .8rem; }
.provenance { border: 1px solid var(--line); border-radius: 6px; padding: .25rem 1rem .75rem; margin-bottom: 1.5rem; font-size: .92rem; }
.provenance h2 { font-size: 1.05rem; margin: .6rem 0; }
.provenance dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0 0 .5rem; }
.provenance dt { font-weight: bold; }
.provenance dd { margin: 0; overflow-wrap: anywhere; }
.hint { color: var(--muted); }
.cell { margin: 1rem 0; }
.cell.code { border-left: 3px solid var(--line); padding-left: .75rem; }
.prompt { color: var(--muted); font: 12px monospace; }
.tag { background: var(--bg-code); border: 1px solid var(--line); border-radius: 3px; padding: 0 .3em; }
.outputs { margin-top: .25rem; }
pre.output { background: #fff; border: 1px solid var(--line); }
pre.output.error, pre.output.stderr { border-color: var(--differ); background: var(--differ-bg); }
.figure { margin: .5rem 0; }
.figure img { max-width: 100%; height: auto; border: 1px solid var(--line); }
.plotly-figure { width: 100%; min-height: 300px; overflow-x: auto; }
.table-scroll, table.facts, table.md-table { display: block; max-width: 100%; overflow-x: auto; }
th[style*="max-width"] { overflow-wrap: anywhere; }
table.paper-items td:nth-child(-n+2) { white-space: nowrap; }
main, .cell, .outputs, .output { min-width: 0; max-width: 100%; }
.output.html { overflow-x: auto; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .88rem; }
caption { caption-side: top; text-align: left; font-weight: bold; padding: .3rem 0; }
th, td { border: 1px solid var(--line); padding: .25rem .5rem; vertical-align: top; }
thead th { background: #f0f0f0; position: sticky; top: 0; }
tbody tr:nth-child(even) td { background: #fafafa; }
td.published { color: var(--muted); font-style: italic; }
td.agrees, span.agrees { background: var(--agree-bg) !important; color: var(--agree); }
td.differs, span.differs { background: var(--differ-bg) !important; color: var(--differ); font-weight: bold; }
span.agrees, span.differs { padding: 0 .3em; border-radius: 3px; }
.delta { font-size: .78rem; font-weight: normal; white-space: nowrap; }
.comparison-summary { font-size: .85rem; color: var(--muted); margin: .2rem 0 .8rem; }
.math { font-family: "Liberation Serif", "Times New Roman", serif; font-style: italic; }
.unlinked { border-bottom: 1px dotted var(--muted); }
blockquote { margin: .75rem 0; padding: .1rem 1rem; border-left: 4px solid var(--warn-line); background: #fffaf0; }
.pager { display: flex; justify-content: space-between; gap: 1rem; border-top: 1px solid var(--line); margin-top: 2rem; padding-top: .75rem; }
ul.notebooks { list-style: none; padding-left: 0; }
ul.notebooks li { margin: .35rem 0; }
`;

/**
 * report/site.js: draws every interactive figure of the page with the shared plotly.min.js, from the
 * spec embedded next to it (a JSON script element: no fetch, so file:// works).
 */
export const SITE_JS = `'use strict';
document.querySelectorAll('.plotly-figure').forEach(function (el) {
  var spec = JSON.parse(document.getElementById(el.getAttribute('data-spec')).textContent);
  var config = Object.assign({ responsive: true, displaylogo: false }, spec.config || {});
  Plotly.newPlot(el, spec.data || [], spec.layout || {}, config);
});
`;
