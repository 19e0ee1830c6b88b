/* SPDX-License-Identifier: MIT */
/*
 * Output kept as JSON strings, an object per line. Docker's json-file log driver
 * writes each line a container printed as {"log":"  read: IOPS=...\n","stream":
 * "stdout","time":"..."}; log shippers write {"message": ...} or {"msg": ...}; an
 * Ansible command task prints its result as `changed: [host] => {..., "stdout":
 * "fio-3.33\nStarting 1 process\n...", ...}`. The text is the string's value: such
 * a line gives the lines of its string, each on its own (nothing carries from one
 * line to the next, so a log in pieces reads as a whole one).
 *
 * A log service's export is JSON as a whole: journalctl -o json-pretty's objects
 * back to back, CloudWatch's {"events": [...]}, Elasticsearch's hits, Google Cloud
 * Logging's entries (newest first), Azure Monitor's table of rows. Its lines are its
 * entries' strings, oldest first (fsc_logexport_text, before the text is normalized).
 */
#define _GNU_SOURCE /* memmem */
#include "parse_int.h"

#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The members whose string is the text, in the order they are asked for: Docker's,
 * Ansible's, the shippers'. Ansible's "stdout_lines" repeats "stdout" and is left.
 * Each as cJSON is asked for it and as it stands in the text, in quotes. */
static const struct {
    const char *name, *quoted;
    size_t n; /* of quoted */
} text_keys[] = {{"log", "\"log\"", 5}, {"stdout", "\"stdout\"", 8}, {"message", "\"message\"", 9},
                 {"msg", "\"msg\"", 5}};
enum { N_TEXT_KEYS = sizeof text_keys / sizeof *text_keys };

/* Where the object of a JSON log line begins: at its first byte that is not blank,
 * or after Ansible's "host] => "; NULL for neither. */
static const char *object_start(const char *s, size_t n)
{
    const char *p = s, *e = s + n;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    if (p < e && *p == '{')
        return p;
    const char *arrow = memmem(s, n, "] => {", 6);
    return arrow ? arrow + 5 : NULL;
}

/* The object's end: its last byte that is not blank, a '}'; NULL if it is none. */
static const char *object_end(const char *o, const char *e)
{
    while (e > o && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
        e--;
    return e - o >= 2 && e[-1] == '}' ? e : NULL;
}

/* Does o[0, n) name one of the members ("log" in quotes)? A quick look before the
 * object is parsed. */
static bool names_text_key(const char *o, size_t n)
{
    for (size_t i = 0; i < N_TEXT_KEYS; i++)
        if (memmem(o, n, text_keys[i].quoted, text_keys[i].n))
            return true;
    return false;
}

bool fsc_jsonlog_in_doc(const char *data, size_t len)
{
    /* over a whole document: fsc_find_lit (a '"' is rare outside JSON) */
    for (size_t i = 0; i < N_TEXT_KEYS; i++)
        if (fsc_find_lit(data, len, text_keys[i].quoted))
            return true;
    return false;
}

size_t fsc_jsonlog_lead(const char *s, size_t n)
{
    if (!n || s[0] != '{')
        return 0;
    for (size_t i = 0; i < N_TEXT_KEYS; i++) {
        const char *p = memmem(s, n, text_keys[i].quoted, text_keys[i].n), *e = s + n;
        if (!p)
            continue;
        p += text_keys[i].n;
        while (p < e && *p == ' ')
            p++;
        if (p < e && *p == ':')
            p++;
        else
            continue;
        while (p < e && *p == ' ')
            p++;
        if (p < e && *p == '"')
            return (size_t)(p + 1 - s);
    }
    return 0;
}

bool fsc_jsonlog_maybe(const char *s, size_t n)
{
    const char *o = object_start(s, n), *e = o ? object_end(o, s + n) : NULL;
    return e && names_text_key(o, (size_t)(e - o));
}

bool fsc_jsonlog_text(const char *s, size_t n, fsc_buf *out)
{
    const char *o = object_start(s, n), *e = o ? object_end(o, s + n) : NULL;
    if (!e || !names_text_key(o, (size_t)(e - o)))
        return false;
    size_t len = (size_t)(e - o), tree = fsc_json_tree_bytes(o, len);
    if (!fsc_budget_charge(tree))
        return false;
    cJSON *root = cJSON_ParseWithLength(o, len);
    bool ok = false;
    /* fio's own JSON on one line (jq -c) is fio's, not a log's */
    if (cJSON_IsObject(root) && !cJSON_GetObjectItemCaseSensitive(root, "fio version") &&
        !cJSON_GetObjectItemCaseSensitive(root, "jobs")) {
        for (size_t i = 0; i < N_TEXT_KEYS && !ok; i++) {
            const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, text_keys[i].name);
            if (cJSON_IsString(item) && item->valuestring) {
                fsc_buf_reset(out);
                fsc_buf_puts(out, item->valuestring);
                ok = !out->oom;
            }
        }
    }
    cJSON_Delete(root);
    fsc_budget_credit(tree);
    return ok;
}

/* ---- a log service's export: JSON values holding the lines ---- */

/* The members whose strings are a log service's lines: journald's (journalctl -o
 * json, json-pretty), CloudWatch's and Elasticsearch's "message", Google Cloud
 * Logging's "textPayload", Splunk's "_raw", a shipper's "log" or "msg", Ansible's
 * "stdout". */
enum { EXPORT_HEAD = 1 << 16 };
static const char *const export_keys[] = {"MESSAGE", "message", "textPayload", "_raw", "log", "msg", "stdout"};

static bool export_key(const char *name)
{
    for (size_t i = 0; i < sizeof export_keys / sizeof *export_keys; i++)
        if (name && !strcmp(name, export_keys[i]))
            return true;
    return false;
}

/* One line of an export: where its text is in the collected bytes, and its entry's
 * time as the export wrote it (a string or a number; NULL: none). */
typedef struct export_line {
    size_t off, len;
    const cJSON *time;
} export_line;

typedef struct export_lines {
    fsc_buf text;
    export_line *items;
    size_t n, cap;
    bool oom;
} export_lines;

static const char *const time_keys[] = {"timestamp", "@timestamp", "__REALTIME_TIMESTAMP", "time", "receiveTimestamp",
                                        "TimeGenerated", "_time"};

static const cJSON *entry_time(const cJSON *entry)
{
    for (size_t i = 0; i < sizeof time_keys / sizeof *time_keys; i++) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(entry, time_keys[i]);
        if (cJSON_IsString(t) || cJSON_IsNumber(t))
            return t;
    }
    return NULL;
}

static void export_add(export_lines *el, const char *s, const cJSON *time)
{
    export_line *l = FSC_PUSH(el->items, el->n, el->cap);
    if (!l) {
        el->oom = true;
        return;
    }
    size_t n = strlen(s);
    l->off = el->text.len;
    l->len = n;
    l->time = time;
    fsc_buf_add(&el->text, s, n);
}

/* Azure Monitor's query result: {"columns": [{"name": ...}], "rows": [[...], ...]},
 * the lines in the column of a log's name. */
static const char *const azure_columns[] = {"LogEntry", "RawData", "Message", "message", "Log", "log", "msg"};

static bool azure_table(const cJSON *t, export_lines *el)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(t, "columns");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(t, "rows");
    if (!cJSON_IsArray(cols) || !cJSON_IsArray(rows))
        return false;
    int at = -1, k = 0;
    for (const cJSON *c = cols->child; c && at < 0; c = c->next, k++) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(c, "name");
        for (size_t i = 0; cJSON_IsString(name) && i < sizeof azure_columns / sizeof *azure_columns; i++)
            if (!strcmp(name->valuestring, azure_columns[i]))
                at = k;
    }
    if (at < 0)
        return false;
    for (const cJSON *r = rows->child; r; r = r->next) {
        const cJSON *v = cJSON_GetArrayItem(r, at);
        if (cJSON_IsString(v) && v->valuestring)
            export_add(el, v->valuestring, NULL);
    }
    return true;
}

/* The strings of the export members in v, in document order. Depth-first: an export
 * nests its entries ("events": [...], "hits": {"hits": [{"_source": {...}}]}). */
static void export_strings(const cJSON *v, export_lines *el, int depth)
{
    if (depth > 32 || (cJSON_IsObject(v) && azure_table(v, el)))
        return;
    for (const cJSON *c = v ? v->child : NULL; c; c = c->next) {
        if (cJSON_IsString(c) && c->valuestring && export_key(c->string))
            export_add(el, c->valuestring, entry_time(v));
        else if (cJSON_IsObject(c) || cJSON_IsArray(c))
            export_strings(c, el, depth + 1);
    }
}

/* Is time a after time b (ISO 8601 strings compare as text, epoch numbers as
 * numbers)? */
static int time_cmp(const cJSON *a, const cJSON *b)
{
    if (cJSON_IsNumber(a) && cJSON_IsNumber(b))
        return (a->valuedouble > b->valuedouble) - (a->valuedouble < b->valuedouble);
    if (cJSON_IsString(a) && cJSON_IsString(b))
        return strcmp(a->valuestring, b->valuestring);
    return 0;
}

/* Newest first (gcloud logging read, Loki and Kibana list so): every line's time no
 * later than the one before it, and some earlier. */
static bool newest_first(const export_lines *el)
{
    bool earlier = false;
    for (size_t i = 1; i < el->n; i++) {
        if (!el->items[i].time || !el->items[i - 1].time)
            return false;
        int c = time_cmp(el->items[i].time, el->items[i - 1].time);
        if (c > 0)
            return false;
        earlier = earlier || c < 0;
    }
    return earlier;
}

/* The lines, oldest first, a line each (a string's own newlines kept). */
static void export_out(const export_lines *el, fsc_buf *out)
{
    bool reverse = newest_first(el);
    for (size_t k = 0; k < el->n; k++) {
        const export_line *l = &el->items[reverse ? el->n - 1 - k : k];
        fsc_buf_add(out, el->text.data + l->off, l->len);
        if (!l->len || el->text.data[l->off + l->len - 1] != '\n')
            fsc_buf_putc(out, '\n');
    }
}

/* Does text hold a line of fio's report? */
static bool fio_marked(const char *s, size_t n)
{
    return memmem(s, n, "(groupid=", 9) || memmem(s, n, "(g=", 3) || memmem(s, n, "IOPS=", 5) ||
           memmem(s, n, "iops=", 5) || memmem(s, n, "Run status group", 16);
}

bool fsc_logexport_doc(const char *data, size_t len)
{
    size_t i = 0;
    while (i < len && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
        i++;
    if (i == len || (data[i] != '{' && data[i] != '['))
        return false;
    /* fio's own JSON names its version first: asked of every JSON document read */
    size_t j = i + 1;
    while (j < len && (data[j] == ' ' || data[j] == '\t' || data[j] == '\r' || data[j] == '\n'))
        j++;
    if (len - j >= 13 && !memcmp(data + j, "\"fio version\"", 13))
        return false;
    /* an export names a member and shows fio's lines in its first entries: only its
     * head is looked at */
    size_t head = len - i < EXPORT_HEAD ? len - i : EXPORT_HEAD;
    bool named = memmem(data + i, head, "\"rows\"", 6) != NULL; /* azure_table's */
    for (size_t k = 0; k < sizeof export_keys / sizeof *export_keys && !named; k++) {
        char q[16];
        int qn = snprintf(q, sizeof q, "\"%s\"", export_keys[k]);
        named = memmem(data + i, head, q, (size_t)qn) != NULL;
    }
    return named && fio_marked(data + i, head);
}

fsc_status fsc_logexport_text(const char *data, size_t len, fsc_buf *out)
{
    /* the values one after another (journalctl -o json-pretty writes objects back to
     * back, -o json one a line); all of the document must be JSON */
    const char *p = data, *end = data + len;
    size_t tree = fsc_json_tree_bytes(data, len);
    if (!fsc_budget_charge(tree))
        return FSC_E_NOMEM;
    export_lines el = {0};
    cJSON **values = NULL; /* kept to the end: the lines' times point into them */
    size_t n_values = 0, cap_values = 0;
    bool whole = true;
    while (whole) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' || *p == ','))
            p++;
        if (p == end)
            break;
        const char *stop = NULL;
        cJSON *v = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, false);
        cJSON **slot = v ? FSC_PUSH(values, n_values, cap_values) : NULL;
        if (!v || !stop || stop <= p || cJSON_GetObjectItemCaseSensitive(v, "fio version") || !slot) {
            whole = false; /* not JSON after all, or fio's own: read as it stands */
            el.oom = el.oom || (v && !slot);
            cJSON_Delete(v);
        } else {
            *slot = v;
            export_strings(v, &el, 0);
            p = stop;
        }
    }
    fsc_status st = el.oom || el.text.oom ? FSC_E_NOMEM : FSC_OK;
    if (st == FSC_OK && whole && el.n && fio_marked(el.text.data, el.text.len))
        export_out(&el, out);
    for (size_t i = 0; i < n_values; i++)
        cJSON_Delete(values[i]);
    free(values);
    free(el.items);
    fsc_buf_free(&el.text);
    fsc_budget_credit(tree);
    return out->oom ? FSC_E_NOMEM : st;
}
