# {{title}}

Runs: {{n_runs}}, jobs: {{n_jobs}}, systems: {{n_systems}}, charts: {{n_charts}}. Written by {{generated_by}}.
The same tables are in {{#has_workbook}}`report.xlsx` (numbers as numbers) and {{/has_workbook}}`index.html`.
{{#charts_missing}}
**Charts not drawn:** {{charts_missing}}. The tables hold every number; the charts section names each chart left out.
{{/charts_missing}}{{#workbook_missing}}
**Workbook not written:** {{workbook_missing}}.
{{/workbook_missing}}{{#has_bad_inputs}}
## Inputs without results

{{#bad_inputs}}- {{path}}{{#member}} › {{member}}{{/member}}: {{status}}, {{error}}
{{#input_notes}}  - {{note}}
{{/input_notes}}{{/bad_inputs}}{{/has_bad_inputs}}{{#has_notes}}
## Notes

{{#notes}}- {{text}}
{{/notes}}{{/has_notes}}{{#multi_system}}
## Systems

{{n_systems}} systems (told apart by: {{system_source}}); workloads are matched on {{workload_key}}. Changes are against **{{baseline}}**.

{{#systems}}- {{name}}{{#is_baseline}} (baseline){{/is_baseline}}
{{/systems}}
## Pivot: workloads × systems

Each cell is the median over the repeats of that workload on that system; the last columns give the change against {{baseline}}.

{{#pivots}}### {{title}}

{{{table}}}
{{/pivots}}{{#has_compare}}
## Comparison against {{baseline}}

`p` is the two-sided Mann-Whitney test over the repeats (`*`: p < 0.05); `~ (n=1+1)` means too few repeats for the test to decide.

{{{compare_table}}}
{{/has_compare}}{{/multi_system}}
## Summary

{{{summary_table}}}

## Charts

{{#charts_plain}}Pango cannot be loaded here: the charts' text is drawn with cairo's simple text API, without font fallback (labels in other scripts may show as boxes). `apt install libpangocairo-1.0-0` gives the usual text.

{{/charts_plain}}{{#charts}}### {{title}}

![{{title}}]({{file}}) ([SVG]({{svg}}))

{{/charts}}{{^charts}}{{^charts_missing}}No chart: the inputs hold no numbers to draw.

{{/charts_missing}}{{/charts}}{{#skipped}}**{{title}}:** {{reason}}

{{/skipped}}{{#has_time}}## Over time

From fio's log files found with the runs: per run, its jobs over time.

{{#time_charts}}### {{title}}

![{{title}}]({{file}}) ([SVG]({{svg}}))

{{/time_charts}}{{/has_time}}{{#families}}## {{title}}

{{{table}}}

{{/families}}## Sources

| run | label | file | member | lines | format | fio | jobs | warnings |
|---|---|---|---|---|---|---|---|---|
{{#sources}}| {{id}} | {{label}} | {{path}} | {{member}} | {{lines}} | {{format}} | {{fio_version}} | {{jobs}} | {{n_warnings}} |
{{/sources}}{{#sources}}{{#has_warnings}}
Warnings of {{id}}:

{{#warnings}}- line {{line}}: {{message}}
{{/warnings}}{{/has_warnings}}{{/sources}}
