# {{title}}

Runs: {{n_runs}}, jobs: {{n_jobs}}, charts: {{n_charts}}. Written by {{generated_by}}.
The same tables are in `report.xlsx` (numbers as numbers) and `index.html`.
{{#has_bad_inputs}}
## Inputs without results

{{#bad_inputs}}- {{path}}{{#member}} › {{member}}{{/member}}: {{status}}, {{error}}
{{/bad_inputs}}{{/has_bad_inputs}}
## Summary

{{{summary_table}}}

## Charts

{{#charts}}### {{title}}

![{{title}}]({{file}})

{{/charts}}{{^charts}}No chart: the inputs hold no numbers to draw.

{{/charts}}{{#families}}## {{title}}

{{{table}}}

{{/families}}## Sources

| run | label | file | member | lines | format | fio | jobs | warnings |
|---|---|---|---|---|---|---|---|---|
{{#sources}}| {{id}} | {{label}} | {{path}} | {{member}} | {{lines}} | {{format}} | {{fio_version}} | {{jobs}} | {{n_warnings}} |
{{/sources}}{{#sources}}{{#has_warnings}}
Warnings of {{id}}:

{{#warnings}}- line {{line}}: {{message}}
{{/warnings}}{{/has_warnings}}{{/sources}}
