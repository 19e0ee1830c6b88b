/* SPDX-License-Identifier: MIT */
/*
 * Output kept as JSON strings, an object per line. Docker's json-file log driver
 * writes each line a container printed as {"log":"  read: IOPS=...\n","stream":
 * "stdout","time":"..."}; log shippers write {"message": ...} or {"msg": ...}; an
 * Ansible command task prints its result as `changed: [host] => {..., "stdout":
 * "fio-3.33\nStarting 1 process\n...", ...}`. The text is the string's value: such
 * a line gives the lines of its string, each on its own (nothing carries from one
 * line to the next, so a log in pieces reads as a whole one).
 */
#define _GNU_SOURCE /* memmem */
#include "parse_int.h"

#include <cJSON.h>
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
