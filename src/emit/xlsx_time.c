/* SPDX-License-Identifier: MIT */
/*
 * The "Over time" sheet of report.xlsx: for each run with fio log files and each kind
 * (IOPS, bandwidth, latency), the series resampled to one interval (a column per job
 * and direction, clones summed) with a native line chart beside the block.
 */
#include "report_int.h"

#include "fioscope/timeseries.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows a block may take (a longer run is cut there, and says so). */
#define MAX_ROWS 20000
/* Rows a block takes at least: the chart beside it is about this tall. */
#define CHART_ROWS 22
#define MAX_COLUMNS 24

typedef struct column {
    char name[128];
    fsc_tsgrid g;
} column;

static const char *kind_title(fsc_logkind k)
{
    return k == FSC_LOG_BW ? "bandwidth" : k == FSC_LOG_IOPS ? "IOPS" : k == FSC_LOG_CLAT ? "completion latency"
                                                                                          : "latency";
}

static fsc_unit kind_unit(fsc_logkind k)
{
    return k == FSC_LOG_BW ? FSC_UNIT_BYTES_PER_S : k == FSC_LOG_IOPS ? FSC_UNIT_IOPS : FSC_UNIT_NS;
}

/* The directions of a job's series of kind k (bits of FSC_DIR_READ..TRIM). */
static unsigned job_dirs(const fsc_logseries *const *s, size_t n)
{
    int64_t d[1024];
    unsigned mask = 0;
    for (size_t i = 0; i < n; i++) {
        size_t got = fsc_logseries_read(s[i], 0, 1024, FSC_COL_DIR, d);
        if (!got)
            mask |= 1;
        for (size_t k = 0; k < got; k++)
            if (d[k] >= 0 && d[k] <= FSC_DIR_TRIM)
                mask |= 1u << d[k];
    }
    return mask ? mask : 1;
}

/* The columns of one run and kind: every job (clones summed), each direction. */
static size_t run_columns(const fsc_run *run, fsc_logkind k, double *step, column *cols, size_t max)
{
    double origin = fsc_ts_origin((const fsc_logseries *const *)run->series, run->n_series);
    *step = 0;
    for (size_t i = 0; i < run->n_series; i++)
        if (run->series[i]->kind == k && run->series[i]->n)
            *step = fmax(*step, fsc_ts_period(run->series[i]));
    if (*step <= 0)
        *step = 1000;
    size_t n = 0;
    for (size_t i = 0; i < run->n_series && n < max; i++) {
        const fsc_logseries *s = run->series[i];
        const char *job = s->job ? s->job : "";
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = !(run->series[j]->kind == k && !strcmp(run->series[j]->job ? run->series[j]->job : "", job));
        if (s->kind != k || !s->n || !first)
            continue;
        const fsc_logseries *same[64];
        size_t ns = 0;
        for (size_t j = i; j < run->n_series && ns < 64; j++)
            if (run->series[j]->kind == k && !strcmp(run->series[j]->job ? run->series[j]->job : "", job))
                same[ns++] = run->series[j];
        unsigned dirs = job_dirs(same, ns);
        bool several = (dirs & (dirs - 1)) != 0;
        for (int d = FSC_DIR_READ; d <= FSC_DIR_TRIM && n < max; d++) {
            if (!(dirs & (1u << d)))
                continue;
            fsc_ts_opts o = {.step_ms = *step, .dir = several ? d : -1, .origin_ms = origin};
            if (fsc_ts_resample_all(same, ns, &o, &cols[n].g) != FSC_OK)
                continue;
            snprintf(cols[n].name, sizeof cols[n].name, "%s%s%s", job, several ? " " : "",
                     several ? fsc_ddir_name((fsc_ddir)d) : "");
            n++;
            if (!several)
                break;
        }
    }
    return n;
}

/* One block: title, header, rows of time and values, a line chart to the right.
 * Returns the next free row. */
static lxw_row_t block(lxw_workbook *wb, lxw_worksheet *ws, lxw_row_t row, const char *title, fsc_logkind k,
                       double step, column *cols, size_t n, const fsc_xlsx_fmt *f, lxw_error *err)
{
    const char *suffix, *numfmt;
    fsc_unit u = kind_unit(k);
    double div = fsc_xlsx_unit(u, &suffix, &numfmt);
    size_t len = 0;
    for (size_t c = 0; c < n; c++)
        len = cols[c].g.n > len ? cols[c].g.n : len;
    bool cut = len > MAX_ROWS;
    if (cut)
        len = MAX_ROWS;
    char head[320];
    snprintf(head, sizeof head, "%s%s", title, cut ? " (cut: the first 20000 intervals)" : "");
    worksheet_write_string(ws, row, 0, head, f->head);
    lxw_row_t hr = row + 1;
    worksheet_write_string(ws, hr, 0, "time (s)", f->head);
    for (size_t c = 0; c < n; c++) {
        char h[200];
        snprintf(h, sizeof h, "%s%s%s%s", cols[c].name, *suffix ? " (" : "", suffix, *suffix ? ")" : "");
        worksheet_write_string(ws, hr, (lxw_col_t)(c + 1), h, f->head);
    }
    for (size_t r = 0; r < len; r++) {
        lxw_row_t xr = hr + 1 + (lxw_row_t)r;
        worksheet_write_number(ws, xr, 0, ((double)r + 0.5) * step / 1000.0, NULL);
        for (size_t c = 0; c < n; c++) {
            const fsc_tsgrid *g = &cols[c].g;
            if (r < g->n && isfinite(g->v[r]))
                worksheet_write_number(ws, xr, (lxw_col_t)(c + 1),
                                       g->v[r] * (k == FSC_LOG_BW ? 1024.0 : 1.0) / div, f->num[u]);
        }
    }
    lxw_chart *ch = len > 1 ? workbook_add_chart(wb, LXW_CHART_SCATTER_STRAIGHT) : NULL;
    if (ch) {
        for (size_t c = 0; c < n; c++) {
            lxw_chart_series *s = chart_add_series(ch, NULL, NULL);
            chart_series_set_categories(s, "Over time", hr + 1, 0, hr + (lxw_row_t)len, 0);
            chart_series_set_values(s, "Over time", hr + 1, (lxw_col_t)(c + 1), hr + (lxw_row_t)len,
                                    (lxw_col_t)(c + 1));
            chart_series_set_name_range(s, "Over time", hr, (lxw_col_t)(c + 1));
        }
        chart_title_set_name(ch, title);
        chart_axis_set_name(ch->x_axis, "time (s)");
        char yname[96];
        snprintf(yname, sizeof yname, "%s%s%s%s", kind_title(k), *suffix ? " (" : "", suffix, *suffix ? ")" : "");
        chart_axis_set_name(ch->y_axis, yname);
        chart_legend_set_position(ch, n > 1 ? LXW_CHART_LEGEND_BOTTOM : LXW_CHART_LEGEND_NONE);
        lxw_chart_options opt = {.x_scale = 1.6, .y_scale = 1.3};
        lxw_error e = worksheet_insert_chart_opt(ws, row, (lxw_col_t)(n + 2), ch, &opt);
        if (e != LXW_NO_ERROR && *err == LXW_NO_ERROR)
            *err = e;
    }
    size_t used = 2 + len;
    return row + (lxw_row_t)(used > CHART_ROWS ? used : CHART_ROWS) + 2;
}

void fsc_xlsx_time_sheet(lxw_workbook *wb, const fsc_runset *set, const fsc_xlsx_fmt *f, lxw_error *err)
{
    static const fsc_logkind kinds[] = {FSC_LOG_IOPS, FSC_LOG_BW, FSC_LOG_CLAT, FSC_LOG_LAT};
    lxw_worksheet *ws = NULL;
    lxw_row_t row = 0;
    column *cols = calloc(MAX_COLUMNS, sizeof *cols);
    for (size_t r = 0; cols && set && r < set->n_runs; r++) {
        const fsc_run *run = set->runs[r];
        bool have_clat = false;
        for (size_t k = 0; k < FSC_ARRAY_SIZE(kinds); k++) {
            if (kinds[k] == FSC_LOG_LAT && have_clat)
                continue; /* one latency per run: completion latency when it is there */
            double step;
            size_t n = run_columns(run, kinds[k], &step, cols, MAX_COLUMNS);
            if (!n)
                continue;
            have_clat |= kinds[k] == FSC_LOG_CLAT;
            if (!ws) {
                ws = workbook_add_worksheet(wb, "Over time");
                if (!ws) {
                    for (size_t c = 0; c < n; c++)
                        fsc_tsgrid_free(&cols[c].g);
                    break;
                }
                worksheet_set_column(ws, 0, 0, 10, NULL);
                worksheet_set_column(ws, 1, MAX_COLUMNS, 18, NULL);
            }
            char title[256];
            snprintf(title, sizeof title, "%s: %s over time, every %g ms",
                     run->label && *run->label ? run->label : run->id ? run->id : "", kind_title(kinds[k]), step);
            row = block(wb, ws, row, title, kinds[k], step, cols, n, f, err);
            for (size_t c = 0; c < n; c++)
                fsc_tsgrid_free(&cols[c].g);
        }
    }
    free(cols);
}
