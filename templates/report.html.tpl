<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{{generated_by}}">
<title>{{title}}</title>
<style>
:root { --ink: #1f2933; --muted: #616e7c; --line: #d9e2ec; --head: #eef2f7; --accent: #4e79a7; }
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
th, td { border: 1px solid var(--line); padding: 4px 9px; text-align: right; white-space: nowrap; }
th { background: var(--head); font-weight: 600; position: sticky; top: 0; }
td:first-child, th:first-child { text-align: left; white-space: normal; min-width: 12em; }
tbody tr:nth-child(even) td { background: #fafbfc; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 900px), 1fr)); gap: 18px; }
figure { max-width: 1300px; }
figure { margin: 0; border: 1px solid var(--line); border-radius: 4px; padding: 8px; background: #fff; }
figure img { width: 100%; height: auto; display: block; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
figcaption a { color: var(--accent); }
.warn { background: #fff8e6; border-color: #f0c36d; }
.muted { color: var(--muted); }
ul.files li { margin: 2px 0; }
code { font-size: 13px; }
</style>
</head>
<body>
<header>
<h1>{{title}}</h1>
<p>Runs: {{n_runs}} · jobs: {{n_jobs}} · charts: {{n_charts}}. Written by {{generated_by}}; every number is the value fio printed: in human units here, as numbers with the unit in each column header in <code>report.xlsx</code>, and in base units in the JSON embedded in this page.</p>
</header>
<nav><a href="#summary">Summary</a><a href="#charts">Charts</a>{{#families}}<a href="#family-{{title}}">{{title}}</a>{{/families}}<a href="#sources">Sources</a><a href="#files">Files</a></nav>
<main>
{{#has_bad_inputs}}
<section class="warn">
<h2>Inputs without results</h2>
<ul>
{{#bad_inputs}}<li><code>{{path}}</code>{{#member}} › <code>{{member}}</code>{{/member}}: {{status}}, {{error}}</li>
{{/bad_inputs}}</ul>
</section>
{{/has_bad_inputs}}
<section id="summary">
<h2>Summary</h2>
<p class="muted">One row per job; mixed read/write jobs get a row per direction and a total row.</p>
<div class="scroll">
{{{summary_table}}}
</div>
</section>
<section id="charts">
<h2>Charts</h2>
<div class="charts">
{{#charts}}<figure>
<img src="data:image/png;base64,{{png_base64}}" alt="{{title}}">
<figcaption>{{title}} · <a href="{{file}}">{{file}}</a></figcaption>
</figure>
{{/charts}}</div>
{{^charts}}<p class="muted">No chart: the inputs hold no numbers to draw.</p>{{/charts}}
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
<table>
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
<li><a href="report.xlsx">report.xlsx</a>: the same tables as numbers (one sheet per metric family, native charts, a Sources sheet)</li>
<li><a href="report.md">report.md</a>: this report in Markdown</li>
<li><code>charts/</code>: each chart as PNG</li>
</ul>
<p class="muted">The normalized JSON of every run (as <code>fioscope parse</code> writes it) is embedded in this page: <code>JSON.parse(document.getElementById("fioscope-data").textContent)</code>.</p>
</section>
</main>
<script type="application/json" id="fioscope-data">{{{data_json}}}</script>
</body>
</html>
