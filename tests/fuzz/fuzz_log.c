/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the log reader. The first byte picks the file name (kind, clone
 * number or none, .fz), the fio version of the run and whether the rest is read in
 * two pieces (split at a line end in the middle); the series are then written as JSON
 * and, for value logs, resampled, and histogram logs go through the percentiles. */
#include "fioscope/logs.h"
#include "fioscope/model_json.h"
#include "fioscope/timeseries.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_ENTRY /* the replay test includes several targets under other names */
#define FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int FUZZ_ENTRY(const uint8_t *data, size_t size);

static fsc_logfile *read_piece(const char *name, const fsc_logname *ln, const char *p, size_t n,
                               uint32_t first_line)
{
    fsc_doc doc = {name, NULL, p, n, first_line, 0, NULL, false, FSC_ENC_UTF8, false};
    return fsc_logfile_read(&doc, ln);
}

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"j_bw.1.log",        "j_iops.2.log",       "j_lat.log",
                                        "j_clat.1.log",      "j_slat.1.log",       "j_clat_hist.1.log",
                                        "j_lat_hist.3.log",  "j_bw.1.log.fz"};
    static const char *const versions[] = {NULL, "fio-2.20", "fio-3.10", "fio-3.33"};
    if (!size)
        return 0;
    unsigned sel = data[0];
    const char *name = names[sel & 7];
    const char *version = versions[(sel >> 3) & 3];
    bool pieces = sel & 32;
    char *text = malloc(size); /* a copy without a terminating NUL: the reader must not need one */
    if (!text)
        return 0;
    memcpy(text, data + 1, size - 1);
    size_t len = size - 1;
    fsc_logname ln;
    if (!fsc_log_name_parse(name, &ln)) {
        free(text);
        return 0;
    }
    size_t cut = len;
    if (pieces) {
        const char *nl = len ? memchr(text + len / 2, '\n', len - len / 2) : NULL;
        cut = nl ? (size_t)(nl - text) + 1 : len;
    }
    uint32_t lines = 0;
    for (size_t i = 0; i < cut; i++)
        lines += text[i] == '\n';
    fsc_logfile *f = read_piece(name, &ln, text, cut, 0);
    if (f && cut < len) {
        fsc_logfile *g = read_piece(name, &ln, text + cut, len - cut, lines);
        if (!g || !fsc_logfile_append(f, g)) {
            fsc_logfile_free(f);
            f = NULL;
        }
    }
    if (f) {
        fsc_logfile_finish(f, version);
        fsc_run *run = fsc_run_new();
        for (size_t i = 0; run && i < fsc_logfile_n_series(f); i++) {
            fsc_logseries *s = fsc_logfile_take(f, i);
            if (s)
                fsc_run_add_series(run, s);
        }
        for (size_t i = 0; i < fsc_logfile_n_warnings(f); i++)
            (void)fsc_logfile_warning(f, i)->message[0];
        if (run) {
            fsc_buf out = {0};
            fsc_jw w;
            fsc_jw_init(&w, &out, false, false);
            fsc_model_write_run(&w, run, NULL);
            fsc_buf_free(&out);
            for (size_t i = 0; i < run->n_series; i++) {
                const fsc_logseries *s = run->series[i];
                if (fsc_logkind_is_hist(s->kind)) {
                    fsc_hpctl p;
                    if (fsc_hist_pctl(&s, 1, NULL, &p) == FSC_OK) {
                        fsc_hpctl_text(&p, 3, &out);
                        fsc_hpctl_free(&p);
                    }
                    fsc_buf_free(&out);
                    continue;
                }
                fsc_ts_opts o = {.step_ms = (sel & 64) ? 7 : 0, .dir = -1, .origin_ms = NAN};
                fsc_tsgrid g;
                if (fsc_ts_resample(s, &o, &g) == FSC_OK) {
                    fsc_tsstats st;
                    fsc_ts_stats(&g, &st);
                    fsc_tsgrid_free(&g);
                }
            }
            fsc_run_free(run);
        }
        fsc_logfile_free(f);
    }
    free(text);
    return 0;
}
