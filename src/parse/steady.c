/* SPDX-License-Identifier: MIT */
/*
 * fio's steady-state results (--ss): the "steadystate" object of fio's JSON, and the
 * normal text's line, which shows whether it was attained, the means of the window
 * and the criterion as "%.3f" (fio's JSON: "%f"), but not the limit.
 */
#include "parse_int.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "iops:20.000000%", "bw_slope:0.1%", "lat:5.000000%" (fio 3.42+): what the
 * criterion measures. */
static void kind_from_ss(fsc_steady *ss)
{
    const char *s = ss->ss;
    if (!s)
        return;
    ss->on_iops = !strncmp(s, "iops", 4);
    ss->on_lat = !strncmp(s, "lat", 3);
    if (!ss->on_iops && !ss->on_lat && strncmp(s, "bw", 2))
        return;
    const char *colon = strchr(s, ':');
    ss->slope_crit = strstr(s, "_slope") && (!colon || strstr(s, "_slope") < colon);
    ss->pct = colon && strchr(colon, '%');
    ss->kind_known = true;
}

static bool take_string(char **dst, const cJSON *it)
{
    if (!cJSON_IsString(it))
        return true;
    free(*dst);
    *dst = fsc_strdup(it->valuestring);
    return *dst != NULL;
}

static void take_num(fsc_num *dst, const cJSON *it)
{
    if (cJSON_IsNumber(it))
        *dst = fsc_num_of(it->valuedouble);
    else if (cJSON_IsString(it)) { /* "steadystate_duration" : "3" in job options style */
        char *end;
        double v = strtod(it->valuestring, &end);
        if (end != it->valuestring && !*end)
            *dst = fsc_num_of(v);
    }
}

static bool take_array(double **dst, size_t *n, const cJSON *arr)
{
    if (!cJSON_IsArray(arr))
        return true;
    size_t k = (size_t)cJSON_GetArraySize(arr);
    free(*dst);
    *dst = NULL;
    *n = 0;
    if (!k)
        return true;
    if (!(*dst = malloc(k * sizeof **dst)))
        return false;
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
        if (cJSON_IsNumber(it))
            (*dst)[(*n)++] = it->valuedouble;
    return true;
}

bool fsc_steady_read_json(fsc_steady *ss, const cJSON *obj)
{
    if (!cJSON_IsObject(obj))
        return true;
    ss->present = true;
    bool ok = true;
    const cJSON *it;
    cJSON_ArrayForEach(it, obj) {
        const char *k = it->string;
        if (!k)
            continue;
        if (!strcmp(k, "ss"))
            ok &= take_string(&ss->ss, it);
        else if (!strcmp(k, "criterion"))
            ok &= take_string(&ss->criterion, it);
        else if (!strcmp(k, "duration"))
            take_num(&ss->duration, it);
        else if (!strcmp(k, "steadystate_ramptime"))
            take_num(&ss->ramptime, it);
        else if (!strcmp(k, "attained"))
            take_num(&ss->attained, it);
        else if (!strcmp(k, "max_deviation"))
            take_num(&ss->max_deviation, it);
        else if (!strcmp(k, "slope"))
            take_num(&ss->slope, it);
        else if (!strcmp(k, "data") && cJSON_IsObject(it)) {
            take_num(&ss->bw_mean, cJSON_GetObjectItemCaseSensitive(it, "bw_mean"));
            take_num(&ss->iops_mean, cJSON_GetObjectItemCaseSensitive(it, "iops_mean"));
            take_num(&ss->lat_mean, cJSON_GetObjectItemCaseSensitive(it, "lat_mean"));
            ok &= take_array(&ss->lat, &ss->n_lat, cJSON_GetObjectItemCaseSensitive(it, "lat_ns"));
            ok &= take_array(&ss->iops, &ss->n_iops, cJSON_GetObjectItemCaseSensitive(it, "iops"));
            ok &= take_array(&ss->bw, &ss->n_bw, cJSON_GetObjectItemCaseSensitive(it, "bw"));
        }
    }
    kind_from_ss(ss);
    return ok;
}

fsc_status fsc_steady_read_text(fsc_steady *ss, const fsc_steady_text *t, fsc_unit_rules units)
{
    double bw = 0, iops = 0, lat = 0;
    fsc_status st = fsc_parse_rate(t->bw, t->bw_len, units, &bw);
    if (st == FSC_OK)
        st = fsc_parse_count(t->iops, t->iops_len, &iops);
    /* the window's mean latency, fio 3.42+: whole units (nsec, usec or msec, the
     * largest that leaves at least 1) with a count's k/M ("56.6knsec") */
    if (st == FSC_OK && t->lat)
        st = t->lat_unit ? fsc_parse_duration_ns(t->lat, t->lat_len, t->lat_unit, t->lat_unit_len, &lat)
                         : FSC_E_SYNTAX;
    char *crit = NULL;
    if (st == FSC_OK) {
        fsc_buf b = {0};
        fsc_buf_add(&b, t->criterion, t->criterion_len);
        if (t->pct)
            fsc_buf_putc(&b, '%');
        if (b.oom) {
            fsc_buf_free(&b);
            return FSC_E_NOMEM;
        }
        crit = b.data;
    }
    if (st != FSC_OK)
        return st;
    ss->present = true;
    ss->attained = fsc_num_of(t->attained ? 1 : 0);
    /* the means the line shows are those of the window fio judged (data.bw_mean is
     * bytes/s, printed in the job's own units) */
    ss->bw_mean = fsc_num_of(bw);
    ss->iops_mean = fsc_num_of(iops);
    if (t->lat)
        ss->lat_mean = fsc_num_of(lat);
    free(ss->criterion);
    ss->criterion = crit;
    ss->on_iops = t->on_iops;
    ss->on_lat = t->on_lat;
    ss->slope_crit = t->slope;
    ss->pct = t->pct;
    ss->kind_known = true;
    return FSC_OK;
}
