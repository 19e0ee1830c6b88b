/* SPDX-License-Identifier: MIT */
/*
 * Flat rows from the normalized JSON: each run is written by the model's own JSON
 * writer and walked here, so that the columns follow the JSON whatever fields the
 * model grows. Two passes over the runs: the first collects the columns, the
 * second writes the rows.
 */
#include "fioscope/flat.h"
#include "fioscope/model_json.h"
#include "emit_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- a cursor over JSON text written by fsc_jw (valid, compact) ---- */

typedef struct jcur {
    const char *p, *end;
} jcur;

static void ws(jcur *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\t' || *c->p == '\r'))
        c->p++;
}

static bool eat(jcur *c, char ch)
{
    ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return true;
    }
    return false;
}

static unsigned hex4(const char *s)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int d = fsc_hex_digit((unsigned char)s[i]);
        v = v * 16 + (unsigned)(d < 0 ? 0 : d);
    }
    return v;
}

/* A string literal at the cursor, unescaped into out (when not NULL). */
static bool str(jcur *c, fsc_buf *out)
{
    if (!eat(c, '"'))
        return false;
    while (c->p < c->end && *c->p != '"') {
        if (*c->p != '\\') {
            const char *q = c->p;
            while (q < c->end && *q != '"' && *q != '\\')
                q++;
            if (out)
                fsc_buf_add(out, c->p, (size_t)(q - c->p));
            c->p = q;
            continue;
        }
        if (c->end - c->p < 2)
            return false;
        char e = c->p[1];
        c->p += 2;
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *k = strchr(from, e);
        if (e && k) {
            if (out)
                fsc_buf_putc(out, to[k - from]);
        } else if (e == 'u' && c->end - c->p >= 4) {
            uint32_t cp = hex4(c->p);
            c->p += 4;
            if (cp >= 0xD800 && cp < 0xDC00 && c->end - c->p >= 6 && c->p[0] == '\\' && c->p[1] == 'u') {
                uint32_t lo = hex4(c->p + 2);
                c->p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            if (out)
                fsc_buf_put_utf8(out, cp >= 0xD800 && cp < 0xE000 ? 0xFFFD : cp);
        } else {
            return false;
        }
    }
    return eat(c, '"');
}

/* A scalar other than a string: its text (number, true, false, null). */
static bool scalar(jcur *c, const char **s, size_t *n)
{
    ws(c);
    const char *q = c->p;
    while (q < c->end && !strchr(",}] \n\t\r", *q))
        q++;
    if (q == c->p)
        return false;
    *s = c->p;
    *n = (size_t)(q - c->p);
    c->p = q;
    return true;
}

static bool skip(jcur *c, int depth)
{
    ws(c);
    if (c->p >= c->end || depth > 64)
        return false;
    if (*c->p == '"')
        return str(c, NULL);
    if (*c->p == '{' || *c->p == '[') {
        char close = *c->p == '{' ? '}' : ']';
        bool obj = close == '}';
        c->p++;
        if (eat(c, close))
            return true;
        do {
            if (obj && (!str(c, NULL) || !eat(c, ':')))
                return false;
            if (!skip(c, depth + 1))
                return false;
        } while (eat(c, ','));
        return eat(c, close);
    }
    const char *s;
    size_t n;
    return scalar(c, &s, &n);
}

/* ---- cells: (column name, value) pairs of one row ---- */

typedef struct cell {
    size_t key, val; /* offsets into the row's text */
    bool num;        /* a number (written as is) rather than a text */
    bool null;
} cell;

typedef struct row {
    fsc_buf text; /* keys and values, each NUL-terminated */
    cell *cells;
    size_t n, cap;
    bool oom;
} row;

static void row_reset(row *r)
{
    fsc_buf_reset(&r->text);
    r->n = 0;
}

static size_t put_z(row *r, const char *s, size_t n)
{
    size_t at = r->text.len;
    fsc_buf_add(&r->text, s, n);
    fsc_buf_putc(&r->text, '\0');
    return at;
}

static cell *add_cell(row *r, const char *key, size_t kn)
{
    cell *x = FSC_PUSH(r->cells, r->n, r->cap);
    if (!x) {
        r->oom = true;
        return NULL;
    }
    x->key = put_z(r, key, kn);
    x->num = x->null = false;
    return x;
}

static bool walk(jcur *c, row *r, fsc_buf *prefix, bool *has_data, const char *const *skip_keys, int depth);

/* The key of the member at the cursor, past its ':' (in key, reused), or NULL. */
static const char *member_key(jcur *c, fsc_buf *key)
{
    fsc_buf_reset(key);
    if (!str(c, key) || !eat(c, ':'))
        return NULL;
    return key->data ? key->data : "";
}

/* walk the value at the cursor under prefix + "." + name[0, n) (name alone at the
 * top); the prefix is as before afterwards */
static bool walk_under(jcur *c, row *r, fsc_buf *prefix, const char *name, size_t n, bool *has_data, int depth)
{
    size_t base = prefix->len;
    if (base)
        fsc_buf_putc(prefix, '.');
    fsc_buf_add(prefix, name, n);
    bool ok = walk(c, r, prefix, has_data, NULL, depth);
    prefix->len = base;
    if (prefix->data)
        prefix->data[base] = '\0';
    return ok;
}

/* A direction's "prios" array (fio 3.30+'s latencies by I/O priority): each entry's
 * latency under "prio.C/L" (or "prio.C/L/H" with a hint), the names of the metrics
 * (read.prio.1/0.clat_ns.mean). fioscope's JSON writes the class, level and hint
 * before the latency; an entry without them is passed over. */
static bool walk_prios(jcur *c, row *r, fsc_buf *prefix, bool *has_data, int depth)
{
    ws(c);
    if (c->p >= c->end || *c->p != '[')
        return skip(c, depth);
    c->p++;
    if (eat(c, ']'))
        return true;
    fsc_buf key = {0};
    bool ok = true;
    do {
        if (!eat(c, '{')) {
            ok = false;
            break;
        }
        long keys[3] = {-1, -1, -1};
        static const char *const names[3] = {"prioclass", "prio", "priohint"};
        if (!eat(c, '}')) {
            do {
                const char *k = member_key(c, &key);
                if (!(ok = k != NULL))
                    break;
                int which = -1;
                for (int i = 0; i < 3; i++)
                    if (!strcmp(k, names[i]))
                        which = i;
                ws(c);
                if (which >= 0 && c->p < c->end && *c->p != '{' && *c->p != '[' && *c->p != '"') {
                    const char *v;
                    size_t n;
                    if (!(ok = scalar(c, &v, &n)))
                        break;
                    keys[which] = n && n < 6 && v[0] >= '0' && v[0] <= '9' ? strtol(v, NULL, 10) : -1;
                } else if (c->p < c->end && *c->p == '{' && keys[0] >= 0 && keys[1] >= 0) {
                    char at[64];
                    int an = keys[2] >= 0 ? snprintf(at, sizeof at, "prio.%ld/%ld/%ld.%s", keys[0], keys[1], keys[2], k)
                                          : snprintf(at, sizeof at, "prio.%ld/%ld.%s", keys[0], keys[1], k);
                    ok = walk_under(c, r, prefix, at, an > 0 && (size_t)an < sizeof at ? (size_t)an : 0, has_data,
                                    depth + 2);
                } else {
                    ok = skip(c, depth + 2);
                }
            } while (ok && eat(c, ','));
            ok = ok && eat(c, '}');
        }
    } while (ok && eat(c, ','));
    fsc_buf_free(&key);
    return ok && eat(c, ']');
}

/* The value at the cursor under the name prefix: objects are walked ("bins"
 * skipped), arrays skipped, scalars become cells. has_data is set when a non-zero
 * number is met (a direction fio printed as all zeros was not used). skip_keys: keys
 * of this object to pass over (NULL-terminated, may be NULL). */
static bool walk(jcur *c, row *r, fsc_buf *prefix, bool *has_data, const char *const *skip_keys,
                 int depth)
{
    ws(c);
    if (c->p >= c->end || depth > 32)
        return false;
    if (*c->p == '[')
        return skip(c, depth);
    if (*c->p == '"') {
        fsc_buf v = {0};
        bool ok = str(c, &v);
        cell *x = add_cell(r, prefix->data ? prefix->data : "", prefix->len);
        if (x)
            x->val = put_z(r, v.data ? v.data : "", v.len);
        r->oom |= v.oom;
        fsc_buf_free(&v);
        return ok;
    }
    if (*c->p != '{') {
        const char *s;
        size_t n;
        if (!scalar(c, &s, &n))
            return false;
        cell *x = add_cell(r, prefix->data ? prefix->data : "", prefix->len);
        if (x) {
            x->null = n == 4 && !memcmp(s, "null", 4);
            x->num = !x->null && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'));
            x->val = put_z(r, x->null ? "" : s, x->null ? 0 : n);
            if (x->num && has_data && strtod(s, NULL) != 0)
                *has_data = true;
        }
        return true;
    }
    c->p++;
    if (eat(c, '}'))
        return true;
    fsc_buf key = {0};
    bool ok = true;
    do {
        const char *k = member_key(c, &key);
        if (!(ok = k != NULL))
            break;
        bool pass = !strcmp(k, "bins");
        for (size_t i = 0; skip_keys && skip_keys[i] && !pass; i++)
            pass = !strcmp(k, skip_keys[i]);
        if (pass) {
            ok = skip(c, depth + 1);
        } else if (!strcmp(k, "prios")) {
            ok = walk_prios(c, r, prefix, has_data, depth + 1);
        } else {
            ok = walk_under(c, r, prefix, k, key.len, has_data, depth + 1);
        }
    } while (ok && eat(c, ','));
    fsc_buf_free(&key);
    return ok && eat(c, '}');
}

/* ---- the table ---- */

/* Column names in order of appearance, with an open-addressing index. */
typedef struct columns {
    char **names;
    size_t n, cap;
    size_t *slots; /* index + 1, 0 = free */
    size_t n_slots;
    bool oom;
} columns;

static size_t hash(const char *s)
{
    size_t h = 1469598103934665603ull;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 1099511628211ull;
    return h;
}

/* Index of column name; added when new (add) or SIZE_MAX when absent. */
static size_t column(columns *cs, const char *name, bool add)
{
    if (cs->n * 2 >= cs->n_slots) {
        if (!add)
            goto probe;
        size_t ns = cs->n_slots ? cs->n_slots * 2 : 256;
        size_t *sl = calloc(ns, sizeof *sl);
        if (!sl) {
            cs->oom = true;
            return SIZE_MAX;
        }
        for (size_t i = 0; i < cs->n; i++) {
            size_t h = hash(cs->names[i]) & (ns - 1);
            while (sl[h])
                h = (h + 1) & (ns - 1);
            sl[h] = i + 1;
        }
        free(cs->slots);
        cs->slots = sl;
        cs->n_slots = ns;
    }
probe:
    if (!cs->n_slots)
        return SIZE_MAX;
    for (size_t h = hash(name) & (cs->n_slots - 1);; h = (h + 1) & (cs->n_slots - 1)) {
        if (!cs->slots[h])
            break;
        if (!strcmp(cs->names[cs->slots[h] - 1], name))
            return cs->slots[h] - 1;
    }
    if (!add)
        return SIZE_MAX;
    char *copy = fsc_strdup(name);
    char **slot = copy ? FSC_PUSH(cs->names, cs->n, cs->cap) : NULL;
    if (!slot) {
        free(copy);
        cs->oom = true;
        return SIZE_MAX;
    }
    *slot = copy;
    size_t h = hash(name) & (cs->n_slots - 1);
    while (cs->slots[h])
        h = (h + 1) & (cs->n_slots - 1);
    cs->slots[h] = cs->n;
    return cs->n - 1;
}

static void columns_free(columns *cs)
{
    for (size_t i = 0; i < cs->n; i++)
        free(cs->names[i]);
    free(cs->names);
    free(cs->slots);
}

/* A table whose rows carry disjoint fields (every job its own option or percentile
 * names) has rows x columns cells: 20,000 such jobs made 440 MB of commas from 5 MB
 * of JSON. Up to FLAT_MAX_COLUMNS columns all are kept; beyond, a column keeps its
 * place only when at least one row in FLAT_SPARSE has it, and the rarer fields of a
 * row go into its last cell, OTHER_COLUMN, as a JSON object ({"job options.x":"1"}).
 * Cells then stay under rows x FLAT_MAX_COLUMNS + FLAT_SPARSE x the fields written,
 * linear in the input, and no value is lost. */
#define FLAT_MAX_COLUMNS 1024
#define FLAT_SPARSE 64
#define OTHER_COLUMN "other_fields"

typedef struct flat {
    columns cols;
    bool writing; /* second pass */
    bool tsv;
    fsc_buf *out;
    size_t rows;  /* first pass: rows seen */
    size_t *uses; /* first pass: rows that have each column */
    size_t cap_uses;
    bool *folded; /* second pass: column written into OTHER_COLUMN */
    bool any_folded;
    size_t *shown, n_shown; /* second pass: the columns not folded, in order (a row
                             * walks these, not every column: thousands of rare
                             * fields are folded, one row each) */
    const char **vals; /* per column, for the row being written */
    bool *nums;
    size_t *touched; /* columns set in the row being written */
    fsc_buf other;
    row run, job, dir;
} flat;

static const char *const directions[] = {"read", "write", "trim", "sync", "mixed", NULL};

static void emit_row(flat *f, const row *const *parts, size_t n_parts)
{
    if (!f->writing) {
        f->rows++;
        for (size_t p = 0; p < n_parts; p++)
            for (size_t i = 0; i < parts[p]->n; i++) {
                size_t k = column(&f->cols, parts[p]->text.data + parts[p]->cells[i].key, true);
                if (k == SIZE_MAX)
                    continue;
                if (k >= f->cap_uses) {
                    size_t nc = f->cap_uses ? f->cap_uses * 2 : 256;
                    while (nc <= k)
                        nc *= 2;
                    size_t *nu = realloc(f->uses, nc * sizeof *nu);
                    if (!nu) {
                        f->cols.oom = true;
                        continue;
                    }
                    memset(nu + f->cap_uses, 0, (nc - f->cap_uses) * sizeof *nu);
                    f->uses = nu;
                    f->cap_uses = nc;
                }
                f->uses[k]++;
            }
        return;
    }
    size_t n_touched = 0;
    fsc_buf_reset(&f->other);
    fsc_jw w;
    fsc_jw_init(&w, &f->other, false, false);
    for (size_t p = 0; p < n_parts; p++)
        for (size_t i = 0; i < parts[p]->n; i++) {
            const cell *x = &parts[p]->cells[i];
            const char *name = parts[p]->text.data + x->key, *val = parts[p]->text.data + x->val;
            size_t k = column(&f->cols, name, false);
            if (k == SIZE_MAX)
                continue;
            if (f->folded[k]) { /* a rare field: into the row's OTHER_COLUMN object */
                if (!f->other.len)
                    fsc_jw_obj(&w);
                fsc_jw_key(&w, name);
                if (x->null)
                    fsc_jw_null(&w);
                else if (x->num) {
                    fsc_jw_value_begin(&w);
                    fsc_buf_puts(&f->other, val);
                } else
                    fsc_jw_str(&w, val);
                continue;
            }
            if (!f->vals[k])
                f->touched[n_touched++] = k;
            f->vals[k] = val;
            f->nums[k] = x->num;
        }
    if (f->other.len)
        fsc_jw_obj_end(&w);
    bool first = true;
    for (size_t s = 0; s < f->n_shown; s++) {
        size_t i = f->shown[s];
        if (!first)
            fsc_buf_putc(f->out, f->tsv ? '\t' : ',');
        first = false;
        if (!f->vals[i])
            continue;
        if (f->nums[i])
            fsc_buf_puts(f->out, f->vals[i]);
        else
            (f->tsv ? fsc_put_tsv : fsc_put_csv)(f->out, f->vals[i]);
    }
    if (f->any_folded) {
        fsc_buf_putc(f->out, f->tsv ? '\t' : ',');
        if (f->other.len)
            (f->tsv ? fsc_put_tsv : fsc_put_csv)(f->out, f->other.data);
    }
    for (size_t i = 0; i < n_touched; i++)
        f->vals[f->touched[i]] = NULL;
    fsc_buf_putc(f->out, '\n');
}

/* The cells "dir" = name (a row of its own, so that it sits between the job's fields
 * and the direction's). */
static void dir_cell(row *r, const char *name)
{
    row_reset(r);
    cell *x = add_cell(r, "dir", 3);
    if (x)
        x->val = put_z(r, name ? name : "", name ? strlen(name) : 0);
}

/* One job object at the cursor: its rows. */
static bool job_rows(flat *f, jcur *c)
{
    /* the job's own fields first, its directions kept aside as cursors */
    const char *dstart[FSC_ARRAY_SIZE(directions)] = {0}, *dend[FSC_ARRAY_SIZE(directions)] = {0};
    row_reset(&f->job);
    fsc_buf prefix = {0}, key = {0};
    bool ok = eat(c, '{');
    if (ok && !eat(c, '}')) {
        do {
            fsc_buf_reset(&key);
            if (!str(c, &key) || !eat(c, ':')) {
                ok = false;
                break;
            }
            size_t d = 0;
            while (directions[d] && strcmp(directions[d], key.data ? key.data : ""))
                d++;
            if (directions[d]) {
                ws(c);
                dstart[d] = c->p;
                ok = skip(c, 1);
                dend[d] = c->p;
                continue;
            }
            fsc_buf_reset(&prefix);
            fsc_buf_add(&prefix, key.data ? key.data : "", key.len);
            ok = walk(c, &f->job, &prefix, NULL, NULL, 1);
        } while (ok && eat(c, ','));
        ok = ok && eat(c, '}');
    }
    size_t emitted = 0;
    row dirrow = {0};
    for (size_t d = 0; ok && directions[d]; d++) {
        if (!dstart[d])
            continue;
        jcur dc = {dstart[d], dend[d]};
        bool has = false;
        row_reset(&f->dir);
        fsc_buf_reset(&prefix);
        if (!walk(&dc, &f->dir, &prefix, &has, NULL, 1)) {
            ok = false;
            break;
        }
        if (!has)
            continue;
        dir_cell(&dirrow, directions[d]);
        const row *parts[] = {&f->run, &f->job, &dirrow, &f->dir};
        emit_row(f, parts, 4);
        emitted++;
    }
    if (ok && !emitted) { /* a job without I/O (an error) still has its row */
        dir_cell(&dirrow, NULL);
        const row *parts[] = {&f->run, &f->job, &dirrow};
        emit_row(f, parts, 3);
    }
    f->job.oom |= dirrow.oom || prefix.oom || key.oom;
    fsc_buf_free(&dirrow.text);
    free(dirrow.cells);
    fsc_buf_free(&prefix);
    fsc_buf_free(&key);
    return ok;
}

/* One RUN object (JSON text): the run-level cells, then its jobs' rows. */
static bool run_rows(flat *f, const char *json, size_t len)
{
    static const char *const run_keep[] = {"id", "label", "source", NULL};
    jcur c = {json, json + len};
    row_reset(&f->run);
    fsc_buf prefix = {0}, key = {0};
    bool ok = eat(&c, '{');
    const char *jobs = NULL, *jobs_end = NULL;
    if (ok && !eat(&c, '}')) {
        do {
            fsc_buf_reset(&key);
            if (!str(&c, &key) || !eat(&c, ':')) {
                ok = false;
                break;
            }
            const char *k = key.data ? key.data : "";
            size_t i = 0;
            while (run_keep[i] && strcmp(run_keep[i], k))
                i++;
            if (!strcmp(k, "jobs")) {
                ws(&c);
                jobs = c.p;
                ok = skip(&c, 1);
                jobs_end = c.p;
            } else if (run_keep[i]) {
                fsc_buf_reset(&prefix);
                fsc_buf_puts(&prefix, k);
                ok = walk(&c, &f->run, &prefix, NULL, NULL, 1);
            } else {
                ok = skip(&c, 1);
            }
        } while (ok && eat(&c, ','));
        ok = ok && eat(&c, '}');
    }
    if (ok && jobs) {
        jcur jc = {jobs, jobs_end};
        ok = eat(&jc, '[');
        if (ok && !eat(&jc, ']')) {
            do
                ok = job_rows(f, &jc);
            while (ok && eat(&jc, ','));
        }
    }
    f->run.oom |= prefix.oom || key.oom;
    fsc_buf_free(&prefix);
    fsc_buf_free(&key);
    return ok;
}

static bool pass(flat *f, const fsc_runset *set)
{
    fsc_buf json = {0};
    bool ok = true;
    fsc_json_opts o = {0};
    for (size_t i = 0; ok && i < set->n_runs; i++) {
        fsc_jw w;
        fsc_buf_reset(&json);
        fsc_jw_init(&w, &json, false, false);
        fsc_model_write_run(&w, set->runs[i], &o);
        ok = !json.oom && run_rows(f, json.data, json.len);
    }
    fsc_buf_free(&json);
    return ok && !f->cols.oom && !f->run.oom && !f->job.oom && !f->dir.oom;
}

static void row_free(row *r)
{
    fsc_buf_free(&r->text);
    free(r->cells);
}

fsc_status fsc_flat_write(const fsc_runset *set, const char *format, fsc_buf *out)
{
    if (strcmp(format, "csv") && strcmp(format, "tsv"))
        return FSC_E_USAGE;
    flat f = {.tsv = !strcmp(format, "tsv"), .out = out};
    /* the row-identifying columns come first even when the first run lacks one */
    static const char *const first_cols[] = {"id", "label", "source.path", "source.member"};
    for (size_t i = 0; i < FSC_ARRAY_SIZE(first_cols); i++)
        column(&f.cols, first_cols[i], true);
    bool ok = pass(&f, set);
    size_t n = f.cols.n ? f.cols.n : 1;
    f.vals = calloc(n, sizeof *f.vals);
    f.nums = calloc(n, sizeof *f.nums);
    f.touched = calloc(n, sizeof *f.touched);
    f.folded = calloc(n, sizeof *f.folded);
    f.shown = calloc(n, sizeof *f.shown);
    ok = ok && f.vals && f.nums && f.touched && f.folded && f.shown;
    if (ok) {
        bool first = true;
        for (size_t i = 0; i < f.cols.n; i++) {
            size_t uses = i < f.cap_uses ? f.uses[i] : 0;
            f.folded[i] = f.cols.n > FLAT_MAX_COLUMNS && i >= FSC_ARRAY_SIZE(first_cols) &&
                          uses * FLAT_SPARSE < f.rows;
            f.any_folded |= f.folded[i];
            if (f.folded[i])
                continue;
            f.shown[f.n_shown++] = i;
            if (!first)
                fsc_buf_putc(out, f.tsv ? '\t' : ',');
            first = false;
            (f.tsv ? fsc_put_tsv : fsc_put_csv)(out, f.cols.names[i]);
        }
        if (f.any_folded) {
            fsc_buf_putc(out, f.tsv ? '\t' : ',');
            fsc_buf_puts(out, OTHER_COLUMN);
        }
        fsc_buf_putc(out, '\n');
        f.writing = true;
        ok = pass(&f, set) && !f.other.oom;
    }
    free(f.vals);
    free(f.nums);
    free(f.touched);
    free(f.folded);
    free(f.shown);
    free(f.uses);
    fsc_buf_free(&f.other);
    columns_free(&f.cols);
    row_free(&f.run);
    row_free(&f.job);
    row_free(&f.dir);
    return ok && !out->oom ? FSC_OK : FSC_E_NOMEM;
}
