/* SPDX-License-Identifier: MIT */
/* fio JSON (2.0.10 .. 3.x, json+ and client/server) into the run model. */
#include "parse_int.h"

fsc_run *fsc_json_read(const char *json, size_t len, fsc_buf *err)
{
    (void)json;
    (void)len;
    fsc_buf_puts(err, "JSON reader not built yet");
    return NULL;
}
