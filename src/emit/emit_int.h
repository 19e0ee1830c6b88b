/* SPDX-License-Identifier: MIT */
/* Private to src/emit: metric specs, their evaluation over a set of jobs, and the
 * table builder's grouping entry point that `compare` shares. */
#ifndef FIOSCOPE_EMIT_INT_H
#define FIOSCOPE_EMIT_INT_H

#include "fioscope/metric.h"
#include "fioscope/table.h"

/* Internal grouping used by `compare`: one row per (run, label), jobs of that label in
 * that run summed. */
#define FSC_BY_RUN_LABEL ((fsc_by)100)

/* Cell escaping, the output kinds of fioscope/escape.h under the names the renderers
 * use: fsc_esc_md, fsc_esc_term (text tables), fsc_esc_csv, fsc_esc_tsv, fsc_esc_html. */
void fsc_put_md(fsc_buf *b, const char *s);
void fsc_put_plain(fsc_buf *b, const char *s);
void fsc_put_csv(fsc_buf *b, const char *s);
void fsc_put_tsv(fsc_buf *b, const char *s);
void fsc_put_html(fsc_buf *b, const char *s);
/* A base-unit number for csv/tsv/json/html: integers exactly, others with 15
 * significant digits. */
void fsc_put_num(fsc_buf *b, double v);
/* v rounded to 15 significant digits (for the JSON writer). */
double fsc_round15(double v);

/* A grid of strings (row-major, row 0 = header) as aligned text (two spaces between
 * columns, right[c] right-aligns a column, widths from fsc_text_width) or as a
 * Markdown table. */
void fsc_grid_text(fsc_buf *out, const char *const *cells, size_t n_rows, size_t n_cols,
                   const bool *right);
void fsc_grid_md(fsc_buf *out, const char *const *cells, size_t n_rows, size_t n_cols,
                 const bool *right);

#endif
