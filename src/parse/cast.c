/* SPDX-License-Identifier: MIT */
/*
 * A terminal recording of a fio run: asciinema's .cast file (versions 2 and 3). Its
 * first line is a JSON object (the header: "version", the terminal's size), each
 * line after it an event [time, code, data]; the "o" events hold what the terminal
 * printed, in chunks that end anywhere in a line ("...BW=33.6Mi", "B/s (35.2MB/s)
 * \r\n"). The text is their data one after the other: fio's output as the terminal
 * got it (CR LF, colours, progress lines overwritten with CR), which normalize.c then
 * reads like any terminal's. A piece of a long recording has no header: its events
 * alone tell it.
 */
#include "parse_int.h"

#include <cJSON.h>
#include <string.h>

/* Event lines a headless text must begin with to be a recording's piece. */
enum { CAST_EVENTS_MIN = 3 };

/* The line at *p (up to end): its bytes, *p moved past its newline. */
static const char *next_line(const char **p, const char *end, size_t *n)
{
    const char *s = *p, *nl = memchr(s, '\n', (size_t)(end - s));
    *n = (size_t)((nl ? nl : end) - s);
    *p = nl ? nl + 1 : end;
    if (*n && s[*n - 1] == '\r')
        --*n;
    return s;
}

/* Does s[0, n) begin as an event line: '[', a time, ',' and a quoted one-letter
 * code ("o", "i", "r", "m", "x")? */
static bool event_shape(const char *s, size_t n)
{
    size_t i = 0;
    if (n < 8 || s[i++] != '[')
        return false;
    size_t digits = 0;
    while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == 'e' || s[i] == '-' || s[i] == '+'))
        digits += s[i++] != '.';
    if (!digits)
        return false;
    while (i < n && s[i] == ' ')
        i++;
    if (i >= n || s[i++] != ',')
        return false;
    while (i < n && s[i] == ' ')
        i++;
    return i + 3 <= n && s[i] == '"' && s[i + 1] >= 'a' && s[i + 1] <= 'z' && s[i + 2] == '"';
}

/* Is s[0, n) a recording's header: a JSON object with "version" 2 or 3 and the
 * terminal's size ("width" in v2, "term" in v3)? */
static bool header_line(const char *s, size_t n)
{
    if (n < 2 || s[0] != '{' || s[n - 1] != '}' || !fsc_find_lit(s, n, "\"version\""))
        return false;
    cJSON *h = cJSON_ParseWithLength(s, n);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(h, "version");
    bool ok = cJSON_IsNumber(v) && (v->valueint == 2 || v->valueint == 3) &&
              (cJSON_GetObjectItemCaseSensitive(h, "width") || cJSON_GetObjectItemCaseSensitive(h, "term"));
    cJSON_Delete(h);
    return ok;
}

bool fsc_cast_doc(const char *data, size_t len)
{
    const char *p = data, *end = data + len;
    size_t n, events = 0;
    const char *s = next_line(&p, end, &n);
    if (n && s[0] == '{') {
        if (!header_line(s, n))
            return false;
        s = next_line(&p, end, &n);
        return p > s && event_shape(s, n); /* a header, then an event */
    }
    for (; events < CAST_EVENTS_MIN && event_shape(s, n); events++) {
        if (p >= end)
            return false;
        s = next_line(&p, end, &n);
    }
    return events == CAST_EVENTS_MIN;
}

fsc_status fsc_cast_text(const char *data, size_t len, fsc_buf *out)
{
    const char *p = data, *end = data + len;
    while (p < end) {
        size_t n;
        const char *s = next_line(&p, end, &n);
        if (!event_shape(s, n))
            continue; /* the header, a blank line, a line cut short */
        cJSON *ev = cJSON_ParseWithLength(s, n);
        const cJSON *code = cJSON_GetArrayItem(ev, 1), *text = cJSON_GetArrayItem(ev, 2);
        if (cJSON_IsString(code) && !strcmp(code->valuestring, "o") && cJSON_IsString(text))
            fsc_buf_puts(out, text->valuestring);
        cJSON_Delete(ev);
    }
    return out->oom ? FSC_E_NOMEM : FSC_OK;
}
