<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{{generated_by}}">
<title>{{title}}</title>
<style>
:root { --ink: #1f2933; --muted: #616e7c; --line: #d9e2ec; --head: #eef2f7; --accent: #0072b2; --better: #0072b2; --worse: #d55e00; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 "Noto Sans", "DejaVu Sans", "WenQuanYi Micro Hei", system-ui, sans-serif; color: var(--ink); background: #f7f9fb; }
header { background: #243b53; color: #fff; padding: 18px 32px 14px; }
header h1 { margin: 0 0 4px; font-size: 24px; font-weight: 600; }
header p { margin: 0; color: #d9e2ec; }
nav { background: #fff; border-bottom: 1px solid var(--line); padding: 8px 32px; position: sticky; top: 0; z-index: 1; }
nav a { margin-right: 18px; color: var(--accent); text-decoration: none; font-weight: 600; }
main { padding: 8px 32px 40px; max-width: 1700px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 4px 20px 16px; margin: 20px 0; }
h2 { font-size: 19px; margin: 14px 0 10px; }
h3 { font-size: 16px; margin: 16px 0 8px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-size: 13.5px; margin: 4px 0 8px; }
th, td { border: 1px solid var(--line); padding: 4px 9px; text-align: left; white-space: nowrap; }
th.num, td.num { text-align: right; }
th { background: var(--head); font-weight: 600; position: sticky; top: 0; }
th.sortable { cursor: pointer; user-select: none; }
th.sortable::after { content: " \2195"; color: var(--muted); font-weight: normal; }
th.sorted-asc::after { content: " \2191"; color: var(--ink); }
th.sorted-desc::after { content: " \2193"; color: var(--ink); }
td:first-child, th:first-child { white-space: normal; min-width: 12em; }
tbody tr:nth-child(even) td { background: #fafbfc; }
tr.total td { font-weight: 600; }
td.better { color: var(--better); font-weight: 600; }
td.worse { color: var(--worse); font-weight: 600; }
.swatch { display: inline-block; width: 0.9em; height: 0.9em; border-radius: 2px; vertical-align: -0.1em; margin-right: 0.35em; }
ul.systems { list-style: none; padding: 0; margin: 6px 0; display: flex; flex-wrap: wrap; gap: 6px 22px; }
ul.systems li { white-space: nowrap; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 900px), 1fr)); gap: 18px; }
figure { max-width: 1300px; margin: 0; border: 1px solid var(--line); border-radius: 4px; padding: 8px; background: #fff; break-inside: avoid; }
figure img { width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
figcaption a { color: var(--accent); }
.warn { background: #fff8e6; border-color: #f0c36d; }
.muted { color: var(--muted); }
ul.files li { margin: 2px 0; }
code { font-size: 13px; }
@media print {
  body { background: #fff; font-size: 11pt; }
  header { background: #fff; color: #000; border-bottom: 2px solid #000; padding: 0 0 6px; }
  header p { color: #333; }
  nav, .noprint { display: none; }
  main { padding: 0; max-width: none; }
  section { border: none; padding: 0; margin: 12pt 0; break-inside: auto; }
  h2 { break-after: avoid; }
  .charts { display: block; }
  figure { border: none; padding: 0; margin: 0 0 12pt; max-width: 100%; }
  .scroll { overflow: visible; }
  th { position: static; }
  th.sortable::after { content: ""; }
  table { font-size: 8.5pt; }
  tr { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
</style>
</head>
<body>
<header>
<h1>{{title}}</h1>
<p>Runs: {{n_runs}} · jobs: {{n_jobs}} · systems: {{n_systems}} · charts: {{n_charts}}. Written by {{generated_by}}; every number is the value fio printed: in human units here, {{#has_workbook}}as numbers with the unit in each column header in <code>report.xlsx</code>, {{/has_workbook}}and in base units in the JSON embedded in this page.</p>
</header>
<nav>{{#multi_system}}<a href="#systems">Systems</a>{{/multi_system}}<a href="#charts">Charts</a>{{#has_time}}<a href="#over-time">Over time</a>{{/has_time}}{{#multi_system}}<a href="#pivot">Pivot</a>{{#has_compare}}<a href="#comparison">Comparison</a>{{/has_compare}}{{/multi_system}}<a href="#summary">Summary</a>{{#families}}<a href="#family-{{title}}">{{title}}</a>{{/families}}<a href="#sources">Sources</a><a href="#files">Files</a></nav>
<main>
{{#has_bad_inputs}}
<section class="warn">
<h2>Inputs without results</h2>
<ul>
{{#bad_inputs}}<li><code>{{path}}</code>{{#member}} › <code>{{member}}</code>{{/member}}: {{status}}, {{error}}{{#has_input_notes}}<ul>{{#input_notes}}<li>{{note}}</li>{{/input_notes}}</ul>{{/has_input_notes}}</li>
{{/bad_inputs}}</ul>
</section>
{{/has_bad_inputs}}
{{#charts_missing}}<section class="warn">
<h2>Charts not drawn</h2>
<p>{{charts_missing}}. The tables below hold every number; the charts section names each chart left out.</p>
</section>
{{/charts_missing}}{{#workbook_missing}}<section class="warn">
<h2>Workbook not written</h2>
<p>{{workbook_missing}}. This page and <code>report.md</code> hold the same tables.</p>
</section>
{{/workbook_missing}}{{#has_notes}}<section class="warn">
<h2>Notes</h2>
<ul>
{{#notes}}<li>{{text}}</li>
{{/notes}}</ul>
</section>
{{/has_notes}}{{#multi_system}}<section id="systems">
<h2>Systems</h2>
<p class="muted">{{n_systems}} systems (told apart by: {{system_source}}); workloads are matched on {{workload_key}}. Each system has one colour in every chart; changes are against <strong>{{baseline}}</strong>.</p>
<ul class="systems">
{{#systems}}<li><span class="swatch" style="background:{{color}}"></span>{{name}}{{#is_baseline}} <span class="muted">(baseline)</span>{{/is_baseline}}</li>
{{/systems}}</ul>
</section>
{{/multi_system}}
<section id="charts">
<h2>Charts</h2>
{{#charts_plain}}<p class="muted">Pango cannot be loaded here: the charts' text is drawn with cairo's simple text API, without font fallback (labels in other scripts may show as boxes). <code>apt install libpangocairo-1.0-0</code> gives the usual text.</p>
{{/charts_plain}}<div class="charts">
{{#charts}}<figure>
<img src="data:image/png;base64,{{png_base64}}" alt="{{title}}">
<figcaption>{{title}} · <a href="{{file}}">PNG</a> · <a href="{{svg}}">SVG</a></figcaption>
</figure>
{{/charts}}</div>
{{^charts}}{{^charts_missing}}<p class="muted">No chart: the inputs hold no numbers to draw.</p>{{/charts_missing}}{{/charts}}
{{#skipped}}<p class="muted"><strong>{{title}}:</strong> {{reason}}</p>
{{/skipped}}</section>
{{#has_time}}<section id="over-time">
<h2>Over time</h2>
<p class="muted">From fio's log files (write_bw_log, write_iops_log, write_lat_log, write_hist_log) found with the runs: per run, its jobs over time; latency percentiles computed as fio's fiologparser_hist.py computes them.</p>
<div class="charts">
{{#time_charts}}<figure>
<img src="data:image/png;base64,{{png_base64}}" alt="{{title}}">
<figcaption>{{title}} · <a href="{{file}}">PNG</a> · <a href="{{svg}}">SVG</a></figcaption>
</figure>
{{/time_charts}}</div>
</section>
{{/has_time}}
{{#multi_system}}<section id="pivot">
<h2>Pivot: workloads × systems</h2>
<p class="muted">Each cell is the median over the repeats of that workload on that system; the last columns give each system's change against {{baseline}} (blue: better, orange: worse).</p>
{{#pivots}}<h3>{{title}}</h3>
<div class="scroll">
{{{table}}}
</div>
{{/pivots}}</section>
{{#has_compare}}<section id="comparison">
<h2>Comparison against {{baseline}}</h2>
<p class="muted">One row per workload, direction, metric and system. <code>p</code> is the two-sided Mann-Whitney test over the repeats (<code>*</code>: p &lt; 0.05); <code>~ (n=1+1)</code> means the repeats are too few for the test to decide at all.</p>
<div class="scroll">
{{{compare_table}}}
</div>
</section>
{{/has_compare}}{{/multi_system}}
<section id="summary">
<h2>Summary</h2>
<p class="muted">One row per job; mixed read/write jobs get a row per direction and a total row. Click a column header to sort.</p>
<div class="scroll">
{{{summary_table}}}
</div>
</section>
{{#families}}<section id="family-{{title}}">
<h2>{{title}}</h2>
<div class="scroll">
{{{table}}}
</div>
</section>
{{/families}}
<section id="sources">
<h2>Sources</h2>
<div class="scroll">
<table class="fsc-table">
<thead><tr><th>run</th><th>label</th><th>file</th><th>member</th><th>lines</th><th>format</th><th>fio</th><th>jobs</th><th>warnings</th></tr></thead>
<tbody>
{{#sources}}<tr><td><code>{{id}}</code></td><td>{{label}}</td><td>{{path}}</td><td>{{member}}</td><td>{{lines}}</td><td>{{format}}</td><td>{{fio_version}}</td><td>{{jobs}}</td><td>{{n_warnings}}</td></tr>
{{/sources}}</tbody>
</table>
</div>
{{#sources}}{{#has_warnings}}<h3>Warnings of <code>{{id}}</code></h3>
<ul>
{{#warnings}}<li>line {{line}}: {{message}}</li>
{{/warnings}}</ul>
{{/has_warnings}}{{/sources}}
</section>
<section id="files">
<h2>Files</h2>
<ul class="files">
{{#has_workbook}}<li><a href="report.xlsx">report.xlsx</a>: the same tables as numbers (Summary, Pivot, Compare, one sheet per metric family with native charts, Sources)</li>
{{/has_workbook}}
<li><a href="report.md">report.md</a>: this report in Markdown</li>
{{#has_charts}}<li><code>charts/</code>: each chart as PNG and as SVG (text stays text)</li>{{/has_charts}}
</ul>
<p class="muted">The normalized JSON of every run (as <code>fioscope parse</code> writes it) is embedded in this page: <code>JSON.parse(document.getElementById("fioscope-data").textContent)</code>.</p>
</section>
</main>
<script type="application/json" id="fioscope-data">{{{data_json}}}</script>
<script>
/* Sortable tables: click a header; numbers sort by their data-v value. */
(function () {
  function key(td) {
    if (!td) return "";
    var v = td.getAttribute("data-v");
    if (v !== null && v !== "") return parseFloat(v);
    return td.textContent.trim().toLowerCase();
  }
  function cmp(a, b) {
    var na = typeof a === "number", nb = typeof b === "number";
    if (na && nb) return a - b;
    if (na !== nb) return na ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  document.querySelectorAll("table.fsc-table").forEach(function (table) {
    var ths = table.querySelectorAll("thead th");
    ths.forEach(function (th, col) {
      th.classList.add("sortable");
      th.addEventListener("click", function () {
        var body = table.tBodies[0], asc = !th.classList.contains("sorted-asc");
        ths.forEach(function (o) { o.classList.remove("sorted-asc", "sorted-desc"); });
        th.classList.add(asc ? "sorted-asc" : "sorted-desc");
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (x, y) { var r = cmp(key(x.cells[col]), key(y.cells[col])); return asc ? r : -r; });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
</script>
</body>
</html>
