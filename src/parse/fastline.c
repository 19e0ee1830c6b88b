/* SPDX-License-Identifier: MIT */
/*
 * Hand-written lexers for fio's canonical line shapes (see fastline.h). Each lexer
 * accepts a strict subset of what its grammar rule accepts, and only where no rule
 * tried before that one by fsc_grammar_match could match: the line's lead decides
 * which rules the grammar tries, and the shapes below rule out the earlier ones
 * (a comment at each lexer says why). Values are read into decimals without copies;
 * normal.c converts them with the same functions the grammar path uses.
 */
#define _GNU_SOURCE
#include "fastline.h"

#include "fioscope/units.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* see fastline.h */
const unsigned char fsc_name_chars[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* The kv rules the lexer reads itself, and the model table their fields live in. */
enum fast_rule {
    FR_PCTL_ROW,
    FR_LAT,
    FR_PCTL_TITLE,
    FR_BW,
    FR_IOPS,
    FR_BUCKETS,
    FR_DEPTHS,
    FR_CPU,
    FR_LATENCY,
    FR_ISSUED,
    FR_ISSUED_LEGACY,
    /* matched by their own pattern only (direct) */
    FR_DIR,
    FR_DIR_LEGACY,
    FR_JOB,
    FR_JOBDEF,
    FR_JOBDEF_LEGACY,
    FR_GROUP_HEADER,
    FR_GROUP_DIR,
    FR_GROUP_DIR_LEGACY,
    FR_DISK_HEADER,
    FR_DISK,
    FR_BANNER,
    FR_STARTING,
    FR_CLONE,
    FR_LAYOUT,
    FR_SYNC_SECTION,
    FR_COUNT
};

static const struct {
    const char *id;
    fsc_action action;
} rule_ids[FR_COUNT] = {
    [FR_PCTL_ROW] = {"pctl-row", FSC_ACT_PCTL_ROW},
    [FR_LAT] = {"lat", FSC_ACT_LAT},
    [FR_PCTL_TITLE] = {"pctl-title", FSC_ACT_PCTL_TITLE},
    [FR_BW] = {"bw-stats", FSC_ACT_BW_STATS},
    [FR_IOPS] = {"iops-stats", FSC_ACT_IOPS_STATS},
    [FR_BUCKETS] = {"lat-buckets", FSC_ACT_BUCKETS},
    [FR_DEPTHS] = {"depths", FSC_ACT_DEPTHS},
    [FR_CPU] = {"cpu", FSC_ACT_CPU},
    [FR_LATENCY] = {"latency-target", FSC_ACT_JOB_KV},
    [FR_ISSUED] = {"issued", FSC_ACT_ISSUED},
    [FR_ISSUED_LEGACY] = {"issued-legacy", FSC_ACT_ISSUED},
    [FR_DIR] = {"dir", FSC_ACT_DIR},
    [FR_DIR_LEGACY] = {"dir-legacy", FSC_ACT_DIR},
    [FR_JOB] = {"job", FSC_ACT_JOB},
    [FR_JOBDEF] = {"jobdef", FSC_ACT_JOBDEF},
    [FR_JOBDEF_LEGACY] = {"jobdef-legacy", FSC_ACT_JOBDEF},
    [FR_GROUP_HEADER] = {"group-header", FSC_ACT_GROUP},
    [FR_GROUP_DIR] = {"group-dir", FSC_ACT_GROUP_DIR},
    [FR_GROUP_DIR_LEGACY] = {"group-dir-legacy", FSC_ACT_GROUP_DIR},
    [FR_DISK_HEADER] = {"disk-header", FSC_ACT_DISK_HEADER},
    [FR_DISK] = {"disk", FSC_ACT_DISK},
    [FR_BANNER] = {"banner", FSC_ACT_BANNER},
    [FR_STARTING] = {"starting", FSC_ACT_STARTING},
    [FR_CLONE] = {"clone-marker", FSC_ACT_NOISE},
    [FR_LAYOUT] = {"layout", FSC_ACT_NOISE},
    [FR_SYNC_SECTION] = {"sync-section", FSC_ACT_SYNC_SECTION},
};

/* The kv keys each kv lexer expects, in the order fio prints them. The fields and
 * kinds come from the grammar; these lists only say which keys the fast path knows
 * (a line with any other key goes to the grammar). */
static const char *const lat_keys[] = {"min", "max", "avg", "stdev", NULL};
static const char *const bw_keys[] = {"min", "max", "per", "avg", "stdev", "samples", NULL};
static const char *const iops_keys[] = {"min", "max", "avg", "stdev", "samples", NULL};
static const char *const cpu_keys[] = {"usr", "sys", "ctx", "majf", "minf", NULL};
static const char *const latency_keys[] = {"target", "window", "percentile", "depth", NULL};

typedef struct kvspec {
    const char *const *keys;
    uint8_t klen[FSC_FAST_MAX_KV];
    /* "key=" as the first klen + 1 bytes of a little-endian word, and the mask of
     * those bytes (0: the key is too long for one word) */
    uint64_t kword[FSC_FAST_MAX_KV], kmask[FSC_FAST_MAX_KV];
    size_t n;
    const fsc_kvfield *kv[FSC_FAST_MAX_KV]; /* the grammar's entry for keys[i] */
    fsc_kind kind[FSC_FAST_MAX_KV];         /* kv[i]->kind, kept here: read for every value */
    const fsc_field *field[FSC_FAST_MAX_KV];
    uint32_t last_ok; /* bit i: fio ends a line with keys[i] (fsc_fio_last_key) */
    uint32_t two_dec; /* bit i: fio prints keys[i] with two decimals (fsc_fio_two_decimals) */
} kvspec;

/* The generic rules (no lead) that fsc_grammar_match tries before "job", "disk",
 * "layout" and "jobdef-legacy" are known by their needles: the named-line lexers
 * rule each of them out by the shape they accept (see there). A grammar with other
 * rules in front turns the fast path off. */
enum { MAX_NEEDLES = 16 };
static const char *const known_needles[] = {": (g=", "aggrb=", "2.0.", ": Laying out IO file", ": (groupid=", NULL};

/* The captures of a span rule, in the grammar's field order. */
typedef struct spanrule {
    fsc_fastcap caps[8];
    uint8_t n;
} spanrule;

/* A list as fio prints it on most lines of its kind, read by lex_list at set-up: a
 * line whose whole list is that text takes its items from here (their keys moved to
 * where the list begins in the line), as lex_list would read them there. n 0: the text
 * did not read (no line takes it). */
typedef struct list_literal {
    uint8_t n;
    fsc_fspan key[FSC_FAST_MAX_ITEMS];
    fsc_fdec val[FSC_FAST_MAX_ITEMS];
} list_literal;

/* The depth lists of three in four of fio's depth lines (submit and complete; IO
 * depths) */
static const char depth_list_sc[] = "0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%";
static const char depth_list_io[] = "1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%";

/* A kv list as fio prints it on most lines of its kind, read by kv_list at set-up (as
 * list_literal; no spans: nothing to move) */
typedef struct kv_literal {
    uint8_t n;
    uint8_t key[FSC_FAST_MAX_KV];
    fsc_fdec kv[FSC_FAST_MAX_KV];
} kv_literal;

/* fio's default percentiles' words (pct_columns) by pct_slot, with their values:
 * a row's item whose word is there takes the value without pct_columns' tests and
 * sums (a free slot holds the first word, whose own slot is another: no word is found
 * there) */
typedef struct pct_words {
    uint64_t word[32];
    uint64_t mant[32];
} pct_words;

/* the latency-target list of four in five of fio's lines (3.x, iodepth 1) */
static const char latency_list_usual[] = "target=0, window=0, percentile=100.00%, depth=1";

struct fsc_fastpath {
    const fsc_grammar_set *g;
    spanrule dir, dir_legacy, group_dir, group_dir_legacy;
    fsc_fastdkv disk_kv[32];
    size_t n_disk_kv;
    /* disk_kv[i]'s key as key_word makes it (0: a longer key, or one of other bytes) */
    uint64_t disk_kword[32], disk_kmask[32];
    const fsc_rule *rule[FR_COUNT];
    kvspec kv_lat, kv_bw, kv_iops, kv_cpu, kv_latency;
    /* bit b of lead2[a]: a lead of the grammar begins with the bytes a, b (a lead of
     * one byte a: every b). A named line whose first two bytes begin none needs no
     * fsc_grammar_lead_match (lex_named). */
    uint64_t lead2[256][4];
    bool dir_names; /* a job may be named "read", "write", "trim" or "mixed" (dir_leads_known) */
    list_literal depths_sc, depths_io; /* depth_list_sc, depth_list_io */
    kv_literal latency_usual;          /* latency_list_usual */
    pct_words pct;
};

/* ---- set-up ---- */

/* The kinds of value kv_list reads (kv_value_tail knows what may follow each): plain,
 * int, pct, duration, bwstat and bare times; the rest is the grammar's. */
static bool kv_kind_read(fsc_kind kind)
{
    switch (kind) {
    case FSC_K_INT:
    case FSC_K_PLAIN:
    case FSC_K_BWSTAT:
    case FSC_K_PCT:
    case FSC_K_DURATION:
    case FSC_K_TIME_NS:
    case FSC_K_TIME_US: return true;
    default: return false;
    }
}

/* Key (klen letters, 1 to 8) and its '=' as the low bytes of *word, and the mask of
 * those bytes: a key read as one masked load where fio prints it (spec_key_at,
 * disk_key_at). A key of eight letters fills the word; its '=' is the ninth byte. */
static void key_word(const char *key, size_t klen, uint64_t *word, uint64_t *mask)
{
    size_t wl = klen < 8 ? klen + 1 : 8;
    *word = 0;
    for (size_t b = 0; b < wl; b++)
        *word |= (uint64_t)(unsigned char)(b < klen ? key[b] : '=') << (8 * b);
    *mask = wl == 8 ? ~0ULL : (1ULL << (8 * wl)) - 1;
}

static bool kvspec_init(kvspec *k, const fsc_rule *r, const char *const *keys, const fsc_field *tab,
                        size_t ntab)
{
    k->keys = keys;
    k->n = 0;
    k->last_ok = k->two_dec = 0;
    for (size_t i = 0; keys[i]; i++) {
        if (i >= FSC_FAST_MAX_KV)
            return false;
        if (fsc_fio_last_key(keys[i], strlen(keys[i])))
            k->last_ok |= 1u << i;
        if (fsc_fio_two_decimals(keys[i], strlen(keys[i])))
            k->two_dec |= 1u << i;
        const fsc_kvfield *f = fsc_rule_kv(r, keys[i], strlen(keys[i]));
        if (!f || f->field2 || !kv_kind_read(f->kind))
            return false;
        k->kv[i] = f;
        k->kind[i] = f->kind;
        k->klen[i] = (uint8_t)strlen(keys[i]);
        k->kword[i] = k->kmask[i] = 0;
        if (k->klen[i] + 1 <= 8)
            key_word(keys[i], k->klen[i], &k->kword[i], &k->kmask[i]);
        k->field[i] = fsc_field_find(tab, ntab, f->field, strlen(f->field));
        if (!k->field[i])
            return false; /* the grammar path would warn about it: leave the line to it */
        k->n++;
    }
    return true;
}

/* Slots of the span rules' captures (see the lexers). */
static const char *const dir_slots[] = {"iops", "bw_bytes", "io_bytes", "runtime", "zone_resets", "cachehit", NULL};
static const char *const group_slots[] = {"bw_bytes", "bw_min_bytes", "bw_max_bytes", "io_bytes",
                                          "runtime_min", "runtime_max", NULL};
/* The kind of each slot's capture: the lexers convert most captures as they read them
 * (as read_value would), knowing the kind */
static const fsc_kind dir_kinds[] = {FSC_K_COUNT, FSC_K_RATE, FSC_K_SIZE, FSC_K_INT, FSC_K_INT, FSC_K_PCT};
static const fsc_kind group_kinds[] = {FSC_K_RATE, FSC_K_RATE, FSC_K_RATE, FSC_K_SIZE, FSC_K_INT, FSC_K_INT};

/* apply_fields' walk over the rule's fields, resolved: string captures are not
 * numbers, and a capture that names no model field is skipped, as there. */
static bool spanrule_init(spanrule *sr, const fsc_rule *r, const char *const *slots, const fsc_kind *kinds,
                          const fsc_field *tab, size_t ntab)
{
    sr->n = 0;
    for (size_t i = 0; i < r->n_fields; i++) {
        const fsc_capfield *cf = &r->fields[i];
        if (cf->kind == FSC_K_STRING)
            continue;
        const fsc_field *f = fsc_field_find(tab, ntab, cf->name, strlen(cf->name));
        if (!f)
            continue;
        size_t k = 0;
        while (slots[k] && strcmp(slots[k], cf->name))
            k++;
        if (!slots[k] || sr->n == FSC_ARRAY_SIZE(sr->caps) || cf->kind != kinds[k])
            return false; /* a capture the lexer does not read, or not as that kind */
        sr->caps[sr->n++] = (fsc_fastcap){(uint8_t)k, cf->kind, f};
    }
    return true;
}

/* The disk rule's kv entries with their fields (a field the model lacks: NULL, and
 * a line with that key goes to the grammar, which warns about it). */
static bool disk_kv_init(fsc_fastpath *fp, const fsc_rule *r)
{
    if (r->n_kv > FSC_ARRAY_SIZE(fp->disk_kv))
        return false;
    for (size_t i = 0; i < r->n_kv; i++) {
        const fsc_kvfield *kv = &r->kv[i];
        fsc_fastdkv *d = &fp->disk_kv[i];
        d->kv = kv;
        d->klen = strlen(kv->key);
        d->field = fsc_field_find(fsc_disk_fields, fsc_n_disk_fields, kv->field, strlen(kv->field));
        d->field2 = kv->field2 ? fsc_field_find(fsc_disk_fields, fsc_n_disk_fields, kv->field2, strlen(kv->field2)) : NULL;
        if ((kv->field2 && !d->field2) || (kv->kind != FSC_K_PAIR && kv->kind != FSC_K_INT &&
                                           kv->kind != FSC_K_PLAIN && kv->kind != FSC_K_PCT) ||
            (kv->kind == FSC_K_PAIR) != (kv->field2 != NULL))
            d->field = NULL;
    }
    fp->n_disk_kv = r->n_kv;
    for (size_t i = 0; i < r->n_kv; i++) {
        size_t kl = fp->disk_kv[i].klen;
        fp->disk_kword[i] = fp->disk_kmask[i] = 0;
        bool word_key = kl && kl <= 8; /* and of the letters the long way scans for */
        for (size_t b = 0; b < kl; b++)
            word_key = word_key && ((r->kv[i].key[b] >= 'a' && r->kv[i].key[b] <= 'z') || r->kv[i].key[b] == '_');
        if (word_key)
            key_word(r->kv[i].key, kl, &fp->disk_kword[i], &fp->disk_kmask[i]);
        fp->disk_kv[i].last = (uint8_t)i;
        for (size_t j = i + 1; j < r->n_kv; j++)
            if (!strcmp(r->kv[j].key, r->kv[i].key))
                fp->disk_kv[i].last = (uint8_t)j;
    }
    return true;
}

/* Are the generic rules before `stop` (itself generic) all of the known kinds? */
static bool known_before(const fsc_grammar_set *g, const fsc_rule *stop)
{
    size_t nr;
    const fsc_rule *const *rules = fsc_grammar_rules(g, &nr);
    for (size_t i = 0; i < nr; i++) {
        const fsc_rule *r = rules[i];
        if (r == stop)
            return !r->n_leads;
        if (r->n_leads)
            continue;
        size_t k = 0;
        while (known_needles[k] && !(r->needle && !strcmp(r->needle, known_needles[k])))
            k++;
        if (!known_needles[k])
            return false;
    }
    return false;
}

/* The rules with a lead that fits a line "read: ...", "write: ...", "trim: ..." or
 * "mixed: ..." are dir, dir-legacy and blockinfo only: the first two need "IOPS=" or
 * "io=" after the colon, blockinfo needs a space after "trim". Then a job named
 * after a direction is matched by the generic rules, as any other job. */
static bool dir_leads_known(const fsc_fastpath *fp, const fsc_grammar_set *g)
{
    static const char *const words[] = {"read", "write", "trim", "mixed"};
    const fsc_rule *blockinfo = fsc_grammar_rule(g, "blockinfo");
    if (!blockinfo || blockinfo->action != FSC_ACT_NOISE)
        return false;
    size_t nr;
    const fsc_rule *const *rules = fsc_grammar_rules(g, &nr);
    for (size_t i = 0; i < nr; i++)
        for (size_t l = 0; l < rules[i]->n_leads; l++)
            for (size_t w = 0; w < FSC_ARRAY_SIZE(words); w++) {
                const char *lead = rules[i]->leads[l];
                if (strncmp(lead, words[w], strlen(words[w])))
                    continue;
                if (strcmp(lead, words[w]) ||
                    !(rules[i] == fp->rule[FR_DIR] || rules[i] == fp->rule[FR_DIR_LEGACY] || rules[i] == blockinfo))
                    return false;
            }
    return true;
}

static void leads_by_two_bytes(fsc_fastpath *fp, const fsc_grammar_set *g)
{
    size_t nr;
    const fsc_rule *const *rules = fsc_grammar_rules(g, &nr);
    for (size_t i = 0; i < nr; i++)
        for (size_t l = 0; l < rules[i]->n_leads; l++) {
            const unsigned char *lead = (const unsigned char *)rules[i]->leads[l];
            if (!lead[0])
                continue; /* the grammar takes no empty lead */
            if (!lead[1])
                memset(fp->lead2[lead[0]], 0xff, sizeof fp->lead2[lead[0]]);
            else
                fp->lead2[lead[0]][lead[1] >> 6] |= 1ULL << (lead[1] & 63);
        }
}

/* Can a lead of the grammar fit at p (two bytes of the line there)? */
static inline bool lead_may_begin(const fsc_fastpath *fp, const char *p)
{
    unsigned char a = (unsigned char)p[0], b = (unsigned char)p[1];
    return fp->lead2[a][b >> 6] >> (b & 63) & 1;
}

static bool lex_list(const char *s, const char *q, const char *e, fsc_fastline *out, bool buckets);

static inline bool pct_columns(uint64_t w, uint64_t *m);
static inline unsigned pct_slot(uint64_t w);

static void pct_words_init(pct_words *pw)
{
    static const char *const texts[] = {" 1.00th=", " 5.00th=", "10.00th=", "20.00th=", "30.00th=", "40.00th=",
                                        "50.00th=", "60.00th=", "70.00th=", "80.00th=", "90.00th=", "95.00th=",
                                        "99.00th=", "99.50th=", "99.90th=", "99.95th=", "99.99th="};
    memset(pw, 0, sizeof *pw);
    for (size_t i = 0; i < FSC_ARRAY_SIZE(texts); i++) {
        uint64_t w = fsc_load_le64(texts[i]), m;
        unsigned h = pct_slot(w);
        if (!pw->word[h] && pct_columns(w, &m)) /* a word that shares a slot is read the long way */
            pw->word[h] = w, pw->mant[h] = m;
    }
    uint64_t first = fsc_load_le64(texts[0]);
    for (size_t h = 0; h < FSC_ARRAY_SIZE(pw->word); h++)
        if (!pw->word[h])
            pw->word[h] = first; /* set above, in a slot of its own */
}

static void list_literal_init(list_literal *l, const char *text)
{
    fsc_fastline tmp;
    size_t len = strlen(text);
    memset(&tmp, 0, sizeof tmp);
    l->n = 0;
    if (!lex_list(text, text, text + len, &tmp, false))
        return;
    memcpy(l->key, tmp.item_key, sizeof l->key);
    memcpy(l->val, tmp.val, sizeof l->val);
    l->n = tmp.n;
}

static const fsc_rule *kv_list(const kvspec *k, const fsc_rule *r, const char *p, const char *e, fsc_fastline *out);

static void kv_literal_init(kv_literal *l, const kvspec *k, const fsc_rule *r, const char *text)
{
    fsc_fastline tmp;
    memset(&tmp, 0, sizeof tmp);
    l->n = 0;
    if (!kv_list(k, r, text, text + strlen(text), &tmp))
        return;
    memcpy(l->key, tmp.key, sizeof l->key);
    memcpy(l->kv, tmp.kv, sizeof l->kv);
    l->n = tmp.n;
}

fsc_fastpath *fsc_fastpath_new(const fsc_grammar_set *g)
{
    if (fsc_env_switch("FIOSCOPE_NO_FASTPATH") || !fsc_grammar_builtin(g))
        return NULL;
    fsc_fastpath *fp = calloc(1, sizeof *fp);
    if (!fp)
        return NULL;
    fp->g = g;
    for (int i = 0; i < FR_COUNT; i++) {
        fp->rule[i] = fsc_grammar_rule(g, rule_ids[i].id);
        if (!fp->rule[i] || fp->rule[i]->action != rule_ids[i].action)
            goto off;
    }
    if (!kvspec_init(&fp->kv_lat, fp->rule[FR_LAT], lat_keys, fsc_lat_fields, fsc_n_lat_fields) ||
        !kvspec_init(&fp->kv_bw, fp->rule[FR_BW], bw_keys, fsc_dir_fields, fsc_n_dir_fields) ||
        !kvspec_init(&fp->kv_iops, fp->rule[FR_IOPS], iops_keys, fsc_dir_fields, fsc_n_dir_fields) ||
        !kvspec_init(&fp->kv_cpu, fp->rule[FR_CPU], cpu_keys, fsc_job_fields, fsc_n_job_fields) ||
        !kvspec_init(&fp->kv_latency, fp->rule[FR_LATENCY], latency_keys, fsc_job_fields, fsc_n_job_fields))
        goto off;
    if (fp->kv_lat.kv[0]->kind != FSC_K_DURATION || fp->kv_bw.kv[0]->kind != FSC_K_BWSTAT)
        goto off;
    /* the job line's numbers go to these members (normal.c sets them directly) */
    static const struct {
        const char *name;
        size_t off;
    } job_ints[] = {{"groupid", offsetof(fsc_job, groupid)}, {"jobs", offsetof(fsc_job, jobs)},
                    {"error", offsetof(fsc_job, error)}, {"pid", offsetof(fsc_job, pid)}};
    const fsc_rule *jr = fp->rule[FR_JOB];
    size_t n_ints = 0;
    for (size_t i = 0; i < jr->n_fields; i++) {
        if (jr->fields[i].kind == FSC_K_STRING)
            continue;
        const fsc_field *f = fsc_field_find(fsc_job_fields, fsc_n_job_fields, jr->fields[i].name,
                                            strlen(jr->fields[i].name));
        bool known = false;
        for (size_t k = 0; k < FSC_ARRAY_SIZE(job_ints); k++)
            known = known || (!strcmp(job_ints[k].name, jr->fields[i].name) && f && f->offset == job_ints[k].off &&
                              jr->fields[i].kind == FSC_K_INT);
        if (!known)
            goto off;
        n_ints++;
    }
    if (n_ints != FSC_ARRAY_SIZE(job_ints))
        goto off;
    if (!spanrule_init(&fp->dir, fp->rule[FR_DIR], dir_slots, dir_kinds, fsc_dir_fields, fsc_n_dir_fields) ||
        !spanrule_init(&fp->dir_legacy, fp->rule[FR_DIR_LEGACY], dir_slots, dir_kinds, fsc_dir_fields,
                       fsc_n_dir_fields) ||
        !spanrule_init(&fp->group_dir, fp->rule[FR_GROUP_DIR], group_slots, group_kinds, fsc_group_dir_fields,
                       fsc_n_group_dir_fields) ||
        !spanrule_init(&fp->group_dir_legacy, fp->rule[FR_GROUP_DIR_LEGACY], group_slots, group_kinds,
                       fsc_group_dir_fields, fsc_n_group_dir_fields) ||
        !disk_kv_init(fp, fp->rule[FR_DISK]))
        goto off;
    fp->dir_names = dir_leads_known(fp, g);
    list_literal_init(&fp->depths_sc, depth_list_sc);
    list_literal_init(&fp->depths_io, depth_list_io);
    kv_literal_init(&fp->latency_usual, &fp->kv_latency, fp->rule[FR_LATENCY], latency_list_usual);
    pct_words_init(&fp->pct);
    leads_by_two_bytes(fp, g);
    if (!known_before(g, fp->rule[FR_JOB]) || !known_before(g, fp->rule[FR_DISK]) ||
        !known_before(g, fp->rule[FR_JOBDEF_LEGACY]) || !known_before(g, fp->rule[FR_LAYOUT]))
        goto off;
    return fp;
off:
    free(fp);
    return NULL;
}

void fsc_fastpath_free(fsc_fastpath *fp)
{
    free(fp);
}

/* ---- small lexing helpers: p walks s up to e; NULL means "not this shape" ---- */

static inline const char *skip_sp(const char *p, const char *e)
{
    return fsc_skip_spaces(p, e);
}

/* What follows an item of a ", "-separated list (p past the item; on ITEM_MORE, *p
 * moves to the next item). */
typedef enum { ITEM_BAD, ITEM_LAST, ITEM_MORE, ITEM_TRAILING } item_sep;
static inline item_sep next_item(const char **p, const char *e)
{
    const char *q = *p;
    /* fio's own ", " (one 16-bit compare) */
    if (e - q >= 3 && memcmp(q, ", ", 2) == 0 && q[2] != ' ') {
        *p = q + 2;
        return ITEM_MORE;
    }
    q = skip_sp(q, e);
    if (q == e)
        return ITEM_LAST;
    if (*q != ',')
        return ITEM_BAD;
    *p = q = skip_sp(q + 1, e);
    return q == e ? ITEM_TRAILING : ITEM_MORE;
}

static inline bool is_digit(char c)
{
    return (unsigned char)(c - '0') < 10;
}

/* The value of the digit at p, or a number above 9 for any other byte: read as an
 * unsigned byte, so that no sign extension is done for each digit of a number
 * (a char - '0' is a signed int, widened again for the mantissa's 64 bits). */
static inline unsigned digit_at(const char *p)
{
    return (unsigned)(unsigned char)*p - '0';
}

static inline __attribute__((always_inline)) const char *lit(const char *p, const char *e, const char *l, size_t n)
{
    return (size_t)(e - p) >= n && fsc_same_bytes(p, l, n) ? p + n : NULL;
}
#define LIT(p, e, s) lit((p), (e), (s), sizeof(s) - 1)

/* A decimal "123", "12.5", "0.01": digits, optionally '.' and digits. At most 19
 * digits (so the mantissa cannot overflow) and 18 decimals: longer ones go to the
 * grammar, which reads them the same way, only slower. */
static inline const char *dec(const char *p, const char *e, fsc_fdec *d)
{
    unsigned v;
    if (p >= e || (v = digit_at(p)) > 9)
        return NULL; /* no digit: most numbers have one or two, the first is read here */
    const char *start = p++;
    uint64_t m = v;
    while (p < e && (v = digit_at(p)) <= 9)
        m = m * 10 + v, p++;
    size_t ipart = (size_t)(p - start);
    unsigned scale = 0;
    if (p < e && *p == '.') {
        if (++p >= e || (v = digit_at(p)) > 9)
            return NULL; /* "5." */
        const char *f = p++;
        m = m * 10 + v;
        while (p < e && (v = digit_at(p)) <= 9)
            m = m * 10 + v, p++;
        scale = (unsigned)(p - f);
    }
    if (ipart + scale > 19)
        return NULL;
    d->mant = m;
    d->scale = (uint8_t)scale;
    d->suffix = 0;
    return p;
}

/* Digits only (counts, ids). */
static inline const char *uint_dec(const char *p, const char *e, fsc_fdec *d)
{
    const char *q = dec(p, e, d);
    return q && d->scale == 0 ? q : NULL;
}

static inline bool count_suffix(char c)
{
    return fsc_count_prefix(c) != 0;
}

static inline fsc_fspan span(const char *s, const char *a, const char *b)
{
    fsc_fspan sp = {(uint16_t)(a - s), (uint16_t)(b - a)};
    return sp;
}

/* The end of the line, after trailing spaces: p must be there. */
static inline bool at_end(const char *p, const char *e)
{
    return skip_sp(p, e) == e;
}

static inline bool ends_comma(const char *s, const char *e)
{
    while (e > s && e[-1] == ' ')
        e--;
    return e > s && e[-1] == ',';
}

/* The ')' that closes the '(' at p: NULL where a '(' comes before it or none follows
 * (the lexed lines keep their parentheses balanced). One scan for either byte, inline
 * and eight bytes a step, in place of two memchr calls (a ')' then no '(' before it):
 * the lowest flag of either mask is the first match (see colon_or_eq). */
static inline const char *paren_close(const char *p, const char *e)
{
    p++;
    while (e - p >= 8) {
        uint64_t w = fsc_load_le64(p);
        uint64_t z = fsc_zero_bytes(w ^ FSC_BYTES_OF('(')) | fsc_zero_bytes(w ^ FSC_BYTES_OF(')'));
        if (z) {
            p += __builtin_ctzll(z) >> 3;
            return *p == ')' ? p : NULL;
        }
        p += 8;
    }
    while (p < e && *p != '(' && *p != ')')
        p++;
    return p < e && *p == ')' ? p : NULL;
}

/* ---- kv lines: "min=2, max=46822, avg=28.29, stdev=667.28" ---- */

/* What may follow the number of a value of the given kind (p right after it, d the
 * number): its end, or NULL where the kind takes no such text. */
static const char *kv_value_tail(const char *p, const char *e, fsc_kind kind, fsc_fdec *d)
{
    switch (kind) {
    case FSC_K_DURATION: /* "53296k" (fsc_parse_duration_ns: one count prefix; T, P
                            * and E may not fit 64 bits of ns there) */
        if (p < e && (*p == 'k' || *p == 'K' || *p == 'M' || *p == 'G'))
            d->suffix = *p++;
        else if (p < e && *p >= 'A' && count_suffix(*p)) /* prefixes are letters: no call for " ," */
            return NULL;
        break;
    case FSC_K_PCT: /* "20.68%" (fsc_parse_pct: one trailing '%') */
        if (p < e && *p == '%')
            p++;
        break;
    case FSC_K_INT:
    case FSC_K_PLAIN:
    case FSC_K_BWSTAT:
        break;
    case FSC_K_TIME_NS:
    case FSC_K_TIME_US: /* "target=0" (<= 3.41) only: "2.50ms" (3.42) is the grammar's */
        if (p < e && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
            return NULL;
        break;
    default:
        return NULL;
    }
    return p;
}

/* a[0, n) == b[0, n), for the short keys here (no call to memcmp) */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
    for (size_t j = 0; j < n; j++)
        if (a[j] != b[j])
            return false;
    return true;
}

/* Is "key=" at p? */
static inline bool key_at(const char *p, const char *e, const char *key, size_t kl)
{
    return (size_t)(e - p) > kl && p[kl] == '=' && same_bytes(p, key, kl);
}

/* Is spec key i with its '=' at p? One compare of a word where eight bytes are left
 * (the line goes on after the key's value), else byte by byte. */
static inline bool spec_key_at(const kvspec *k, size_t i, const char *p, const char *e)
{
    if (e - p >= 8 && k->kmask[i]) {
        return (fsc_load_le64(p) & k->kmask[i]) == k->kword[i];
    }
    return key_at(p, e, k->keys[i], k->klen[i]);
}

/* The key=value list from p to the end of the line: keys from spec in their order
 * (some may be left out, as fio does in some versions), ", " between items. The
 * grammar's apply_kv finds each key exactly, so it reads the same. Returns r, the
 * line's rule (its callers' tail call), or NULL. */
static const fsc_rule *kv_list(const kvspec *k, const fsc_rule *r, const char *p, const char *e, fsc_fastline *out)
{
    size_t next = 0;
    uint8_t n = 0; /* out->n, kept out of memory: the uint8_t stores to out->key may alias it */
    out->n = 0;
    out->kvdef = k->kv;
    out->kvfield = k->field;
    for (;;) {
        size_t i = next;
        if (i < k->n && spec_key_at(k, i, p, e)) {
            p += k->klen[i]; /* the key fio prints next: its letters end at the '=' */
        } else {
            const char *ks = p;
            while (p < e && *p >= 'a' && *p <= 'z')
                p++;
            size_t kn = (size_t)(p - ks);
            while (i < k->n && !(k->klen[i] == kn && same_bytes(k->keys[i], ks, kn)))
                i++;
            if (i == k->n || p >= e || *p != '=')
                return NULL;
        }
        p = skip_sp(p + 1, e);
        fsc_fdec *d = &out->kv[n];
        if (!(p = dec(p, e, d)))
            return NULL;
        /* most values end at fio's ", " or at the line's end, where no kind takes
         * more: the kind is looked at for the others only */
        if (p < e && *p != ',' && !(p = kv_value_tail(p, e, k->kind[i], d)))
            return NULL;
        out->key[n++] = (uint8_t)i;
        next = i + 1;
        char last = p[-1];
        item_sep sep = next_item(&p, e);
        /* a trailing comma: a wrapped line, for the grammar; so is a line that ends
         * in another key than fio's last, in a number's point or in one of fio's
         * two-decimal numbers without its two: cut short inside a text (normal.c
         * stops_short) */
        if (sep != ITEM_MORE) {
            out->n = n;
            bool whole = sep == ITEM_LAST && (k->last_ok >> i & 1) && last != '.' &&
                         !((k->two_dec >> i & 1) && d->scale != 2);
            return whole ? r : NULL;
        }
    }
}

/* ---- the lexers, by lead ---- */

/* Is the decimal at most 100: mant <= 100 * 10^scale? dec takes 19 digits at most,
 * so with 17 or more decimals the integer part has two digits at most. */
static bool pct_at_most_100(const fsc_fdec *d)
{
    static const uint64_t p10[17] = {1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
                                     10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
                                     100000000000ULL, 1000000000000ULL, 10000000000000ULL,
                                     100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL};
    return d->scale > 16 || d->mant <= 100 * p10[d->scale];
}

/* Bytes of w (little-endian: byte 0 is the first) that are not ASCII digits get a
 * nonzero high nibble. The "+ 6" carries out of a byte only from 0xfa..0xff, which is
 * itself no digit, and carries go upward: every byte up to and including the first
 * non-digit is right, whatever lies above it. */
static inline uint64_t nondigits(uint64_t w)
{
    const uint64_t hi = 0xF0F0F0F0F0F0F0F0ULL, d3 = 0x3030303030303030ULL;
    return ((w & hi) ^ d3) | (((w + 0x0606060606060606ULL) & hi) ^ d3);
}

/* The value of the n (1..8) ASCII digits in the low bytes of w, the first one the
 * most significant: they are moved to the top (zero bytes above them are leading
 * zeros), then pairs, quads and the eight are summed by multiplies. */
static inline uint64_t digits_value(uint64_t w, unsigned n)
{
    uint64_t v = (w & 0x0F0F0F0F0F0F0F0FULL) << (8 * (8 - n));
    v = v * 10 + (v >> 8);
    v = (((v & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
         (((v >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
    return v;
}

/* digits_value for n <= 4 (percentile values under 10,000, most of them): the digits
 * moved to the top of the low four bytes, the two pairs summed there (the bytes moved
 * above them are not read) */
static inline uint64_t digits_value4(uint64_t w, unsigned n)
{
    uint64_t v = (w & 0x0F0F0F0FULL) << (8 * (4 - n));
    v = v * 10 + (v >> 8);
    return (v & 0xFF) * 100 + (v >> 16 & 0xFF);
}

#define W8(a, b, c, d, e, f, g, h)                                                                              \
    ((uint64_t)(unsigned char)(a) | (uint64_t)(unsigned char)(b) << 8 | (uint64_t)(unsigned char)(c) << 16 |    \
     (uint64_t)(unsigned char)(d) << 24 | (uint64_t)(unsigned char)(e) << 32 | (uint64_t)(unsigned char)(f) << 40 | \
     (uint64_t)(unsigned char)(g) << 48 | (uint64_t)(unsigned char)(h) << 56)

/* A percentile's five columns and "th=" as fio prints them (" 5.00th=", "99.95th="), in
 * w: its value as mantissa of scale 2 ("DD.DD" → DDDD). False for another shape. */
static inline bool pct_columns(uint64_t w, uint64_t *m)
{
    unsigned lead = (unsigned)(w & 0xFF);
    /* below the digit bytes tested: a digit, a space or the '.' (no carry of
     * nondigits() reaches them) */
    if ((w & 0xFFFFFF0000FF0000ULL) != W8(0, 0, '.', 0, 0, 't', 'h', '=') || (lead != ' ' && lead - '0' > 9) ||
        (nondigits(w) & 0xFFFF00FF00ULL))
        return false;
    /* the digit pairs at bytes 0 and 3, then their value */
    uint64_t t = w & 0x0F0F000F0FULL;
    t = t * 10 + (t >> 8);
    *m = (t & 0xFF) * 100 + (t >> 24 & 0xFF);
    return true;
}

/* The slot of a percentile's word in pct_words: a multiply found by trial that gives
 * fio's 17 default percentiles slots of their own */
static inline unsigned pct_slot(uint64_t w)
{
    return (unsigned)((w * 0xd92a4aa2b410d93dULL) >> 59);
}

/* fio's own percentile item at f: the percentile in five columns (" 5.00", "99.95"),
 * "th=[", the value right-aligned ("    4", "13177") and "]", read with two loads: f
 * after its ']'. NULL: read it the long way (another shape: wider, a space before the
 * ']', a fraction; or too near the end for the loads), from the first byte after f's
 * spaces. Where it reads an item, the long way reads the same there: " D.DD" and
 * "DD.DD" are what dec() reads as mantissa and scale 2 (at most 99.99:
 * pct_at_most_100 holds; a space's low nibble is 0, as a leading digit 0 would be),
 * the value is spaces then 1 to 7 digits right before the ']' (uint_dec, no
 * fraction). The last item of a row ends less than eight bytes after its '[': its
 * value is loaded from the line's last eight bytes, moved down, zero bytes (no space,
 * no digit) above the line's end. */
static inline const char *pctl_item_fast(const pct_words *pw, const char *f, const char *e, fsc_fdec *pct,
                                         fsc_fdec *v)
{
    if (e - f < 11 || f[8] != '[') /* the load at f, f[8] == '[', a digit and the ']' */
        return NULL;
    uint64_t w = fsc_load_le64(f), x, m;
    unsigned h = pct_slot(w);
    if (w == pw->word[h])
        m = pw->mant[h];
    else if (!pct_columns(w, &m))
        return NULL;
    const char *q = f + 9;
    size_t left = (size_t)(e - q); /* the value's bytes up to the line's end: 2 or more */
    if (left >= 8)
        x = fsc_load_le64(q);
    else /* (e - 8 >= f) */
        x = fsc_load_le64(e - 8) >> (8 * (8 - left));
    uint64_t sp = x ^ 0x2020202020202020ULL; /* zero bytes: the spaces */
    if (!sp)
        return NULL;
    unsigned ns = (unsigned)__builtin_ctzll(sp) >> 3; /* 0..7 spaces */
    uint64_t y = x >> (8 * ns);                        /* zero bytes come in above: no digits */
    uint64_t ndv = nondigits(y);
    if (!ndv)
        return NULL;
    /* the digits end at byte k of y (below 8: a byte of y is no digit), where the
     * ']' must be: a zero byte past the line's end is none */
    unsigned k = (unsigned)__builtin_ctzll(ndv) >> 3;
    if (k == 0 || (y >> (8 * k) & 0xFF) != ']')
        return NULL;
    pct->mant = m;
    pct->scale = 2;
    pct->suffix = 0;
    v->mant = k <= 4 ? digits_value4(y, k) : digits_value(y, k);
    v->scale = 0;
    v->suffix = 0;
    return q + ns + k + 1;
}

/* "     |  1.00th=[    4],  5.00th=[    4], 10.00th=[    4], 20.00th=[    5],"
 * pctl-row is the only rule of the "|" lead. fio puts "| " or ", " before each item's
 * five columns: pctl_item_fast reads it there, the long way (where it does not) reads
 * from the item's first byte that is not a space, as next_item would have left it. */
static bool lex_pctl_row(const pct_words *pw, const char *p, const char *e, fsc_fastline *out)
{
    uint8_t n = 0; /* out->n, kept out of memory: the uint8_t stores to out->pct may alias it */
    out->n = 0;
    const char *f = p + 1; /* the item's columns, when fio's separator is before them */
    if (f < e && *f == ' ')
        f++;
    for (;;) {
        fsc_fdec *pct = &out->pct[n], *v = &out->val[n];
        const char *r = pctl_item_fast(pw, f, e, pct, v);
        if (r) {
            p = r;
        } else {
            p = skip_sp(f, e);
            if (n && p == e) { /* "...," then spaces: the row goes on below */
                out->n = n;
                return true;
            }
            p = dec(p, e, pct);
            if (!p || !pct_at_most_100(pct) || !(p = LIT(p, e, "th=[")))
                return false; /* act_pctl_row warns about a "995th": the grammar path does that */
            p = skip_sp(p, e);
            if (!(p = uint_dec(p, e, v)))
                return false;
            p = skip_sp(p, e);
            if (p >= e || *p != ']')
                return false;
            p++;
        }
        n++;
        if (e - p >= 2 && memcmp(p, ", ", 2) == 0) {
            f = p + 2;
        } else {
            item_sep sep = next_item(&p, e);
            if (sep != ITEM_MORE) {
                out->n = n;
                return sep != ITEM_BAD; /* ITEM_TRAILING "...,": the row goes on below */
            }
            f = p;
        }
        if (n == FSC_FAST_MAX_ITEMS)
            return false;
    }
}

/* A percentile row (lex_pctl_row) and whether it ends at a comma, p at its '|'. */
static __attribute__((noinline)) const fsc_rule *lex_pctl_line(const fsc_fastpath *fp, const char *s, const char *p,
                                                               const char *e, fsc_fastline *out)
{
    if (!lex_pctl_row(&fp->pct, p, e, out))
        return NULL;
    out->ends_comma = ends_comma(s, e);
    return fp->rule[FR_PCTL_ROW];
}

/* The eight bytes of line s at p, those past its end e zero: p's own where eight are
 * left, else the line's last eight (s has eight) moved down. */
static inline uint64_t load_upto(const char *s, const char *p, const char *e)
{
    size_t left = (size_t)(e - p);
    if (left >= 8)
        return fsc_load_le64(p);
    if (!left || e - s < 8)
        return 0;
    return fsc_load_le64(e - 8) >> (8 * (8 - left));
}

/* A list item as fio prints it, read with two loads from q (after its ">=", if any):
 * 1 to 7 digits, '=' and a percent of one or two decimals, "D.D%" (the depths),
 * "D.DD%" or "DD.DD%" (the buckets): its end, with the key's span (from ks) and the
 * percent set. NULL: read it the long way, which reads the same where this does (dec
 * reads such a percent as mantissa and scale; the digit bytes are tested only above
 * digits, '.' and '=', where no carry of nondigits() comes from). */
static inline const char *list_item_fast(const char *s, const char *ks, const char *q, const char *e, fsc_fspan *key,
                                         fsc_fdec *val)
{
    uint64_t w = load_upto(s, q, e), nd = nondigits(w);
    if (!nd)
        return NULL;
    unsigned k = (unsigned)__builtin_ctzll(nd) >> 3;
    if (k == 0 || (w >> (8 * k) & 0xFF) != '=')
        return NULL;
    const char *v = q + k + 1;
    uint64_t x = load_upto(s, v, e), nx = nondigits(x);
    uint64_t m;
    unsigned scale, len;
    if ((x & 0xFF00FF00ULL) == W8(0, '.', 0, '%', 0, 0, 0, 0) && !(nx & 0xFF00FFULL)) {
        m = (x & 0xF) * 10 + (x >> 16 & 0xF);
        scale = 1, len = 4;
    } else if ((x & 0xFF0000FF00ULL) == W8(0, '.', 0, 0, '%', 0, 0, 0) && !(nx & 0xFFFF00FFULL)) {
        m = (x & 0xF) * 100 + (x >> 16 & 0xF) * 10 + (x >> 24 & 0xF);
        scale = 2, len = 5;
    } else if ((x & 0xFF0000FF0000ULL) == W8(0, 0, '.', 0, 0, '%', 0, 0) && !(nx & 0xFFFF00FFFFULL)) {
        m = (x & 0xF) * 1000 + (x >> 8 & 0xF) * 100 + (x >> 24 & 0xF) * 10 + (x >> 32 & 0xF);
        scale = 2, len = 6;
    } else {
        return NULL;
    }
    *key = span(s, ks, q + k);
    val->mant = m;
    val->scale = (uint8_t)scale;
    val->suffix = 0;
    return v + len;
}

/* A bucket or depth list "4=10.08%, 10=87.04%, >=64=0.01%" from q to the end:
 * apply_list's keys (the text before the last '=', short, no spaces) and percents.
 * buckets: read the items with list_item_fast first (a depth list's are mostly
 * "0.0%", cheaper the long way). */
static bool lex_list(const char *s, const char *q, const char *e, fsc_fastline *out, bool buckets)
{
    uint8_t n = 0; /* out->n, kept out of memory: the uint8_t stores to out->val may alias it */
    out->n = 0;
    for (;;) {
        if (n == FSC_FAST_MAX_ITEMS)
            return false;
        const char *ks = q, *r;
        if (q < e && *q == '>' && (q = LIT(q, e, ">=")) == NULL) /* the last, ">=64=" */
            return false;
        if (buckets && (r = list_item_fast(s, ks, q, e, &out->item_key[n], &out->val[n]))) {
            q = r;
            goto item_read;
        }
        if (q >= e || !is_digit(*q))
            return false; /* no digit (the first is looked at before the loop) */
        q++;
        while (q < e && is_digit(*q))
            q++;
        if (q - ks > 15 || q >= e || *q != '=')
            return false;
        out->item_key[n] = span(s, ks, q);
        const char *zero = LIT(q + 1, e, "0.0%");
        if (zero) {
            /* a depth fio saw no I/O at, half the items of f333's lists: what dec reads
             * in "0.0", and the '%' */
            out->val[n] = (fsc_fdec){0, 1, 0};
            q = zero;
        } else {
            q = dec(q + 1, e, &out->val[n]);
            if (!q || q >= e || *q != '%')
                return false;
            q++;
        }
    item_read:
        n++;
        item_sep sep = next_item(&q, e);
        if (sep != ITEM_MORE) {
            out->n = n;
            return sep == ITEM_LAST; /* a trailing comma: a wrapped line, for the grammar */
        }
    }
}

/* "(usec)" → ns per unit; p after it. */
static const char *paren_unit(const char *p, const char *e, uint64_t *ns)
{
    if (!(p = LIT(p, e, "(")) || e - p < 5 || memcmp(p + 1, "sec)", 4) != 0)
        return NULL;
    switch (*p) {
    case 'n': *ns = 1; break;
    case 'u': *ns = 1000; break;
    case 'm': *ns = 1000000; break;
    default: return NULL;
    }
    return p + 5;
}

/* After a latency word: "    clat (usec): min=..." (rule lat, the first rule of the
 * leads slat/clat/lat/sync), "    clat percentiles (usec):" (pctl-title: the lat
 * rule needs '(' after the word, prio-lat needs "prio"), "  lat (usec)   : 4=10.08%"
 * (lat-buckets, the last rule of lead "lat": lat needs a letter after the colon,
 * pctl-title and both prio rules a word after "lat"). q is after the word;
 * out->which and out->sync say which one it was: the lead's dispatch (lex) has told
 * them apart. */
static __attribute__((noinline)) const fsc_rule *lex_latency_word(const fsc_fastpath *fp, const char *s, const char *q,
                                                                  const char *e, fsc_fastline *out)
{
    bool is_lat = out->which == FSC_LAT_LAT && !out->sync;
    if (q < e && *q == ' ' && q + 1 < e && q[1] == 'p') { /* " percentiles (usec):" */
        if (!(q = LIT(q, e, " percentiles ")) || !(q = paren_unit(q, e, &out->unit_ns)))
            return NULL;
        if (q < e && *q == ':')
            q++;
        if (!at_end(q, e))
            return NULL;
        return fp->rule[FR_PCTL_TITLE];
    }
    q = skip_sp(q, e);
    if (!(q = paren_unit(q, e, &out->unit_ns)))
        return NULL;
    q = skip_sp(q, e);
    if (q >= e || *q != ':')
        return NULL;
    q = skip_sp(q + 1, e);
    if (q < e && *q >= 'a' && *q <= 'z') { /* "min=..." */
        /* the lat rule needs a ',' after its first value, which may carry k, K or M */
        if (!kv_list(&fp->kv_lat, fp->rule[FR_LAT], q, e, out) || out->n < 2 ||
            (out->kv[0].suffix && !strchr("kKM", out->kv[0].suffix)))
            return NULL;
        return fp->rule[FR_LAT];
    }
    if (!is_lat)
        return NULL;
    /* bucket list "4=10.08%, 10=87.04%, >=2000=0.01%" */
    if (!lex_list(s, q, e, out, true))
        return NULL;
    return fp->rule[FR_BUCKETS];
}

/* lex_latency_word for the word the dispatch found: its kind (which) and whether it
 * was "sync" are set in out, so that the call has arguments enough for a tail call. */
static inline const fsc_rule *latency_word(const fsc_fastpath *fp, const char *s, const char *q, const char *e,
                                           uint8_t which, bool sync, fsc_fastline *out)
{
    out->which = which;
    out->sync = sync;
    return lex_latency_word(fp, s, q, e, out);
}

/* "  IO depths    : 1=100.0%, ... >=64=0.0%", "     submit    : 0=0.0%, ...":
 * depths is the only rule of the leads IO, submit and complete. */
static __attribute__((noinline)) const fsc_rule *lex_depths(const fsc_fastpath *fp, const char *s, const char *q,
                                                            const char *e, fsc_fastline *out)
{
    q = skip_sp(q, e);
    if (q >= e || *q != ':')
        return NULL;
    q = skip_sp(q + 1, e);
    const list_literal *l = NULL;
    if ((size_t)(e - q) == sizeof depth_list_sc - 1 && fsc_same_bytes(q, depth_list_sc, sizeof depth_list_sc - 1))
        l = &fp->depths_sc;
    else if ((size_t)(e - q) == sizeof depth_list_io - 1 && fsc_same_bytes(q, depth_list_io, sizeof depth_list_io - 1))
        l = &fp->depths_io;
    if (l && l->n) {
        uint16_t base = (uint16_t)(q - s);
        for (uint8_t i = 0; i < l->n; i++) {
            out->item_key[i] = (fsc_fspan){(uint16_t)(l->key[i].off + base), l->key[i].len};
            out->val[i] = l->val[i];
        }
        out->n = l->n;
        return fp->rule[FR_DEPTHS];
    }
    if (q >= e || !is_digit(*q) || !lex_list(s, q, e, out, false))
        return NULL; /* the list starts with a digit */
    return fp->rule[FR_DEPTHS];
}

/* One issued group: "0,36673,0,0" (issued) or "r=104288/w=44711/d=0" (legacy). */
static const char *issued_group(const char *q, const char *e, bool legacy, fsc_fastline *out, int g)
{
    static const char letters[] = {'r', 'w', 'd'};
    uint8_t k = 0;
    for (;;) {
        if (legacy) {
            if (k >= 3 || e - q < 2 || q[0] != letters[k] || q[1] != '=')
                return NULL;
            q += 2;
        } else if (k >= 4) {
            return NULL;
        }
        if (q < e && *q == '0' && (q + 1 == e || (!is_digit(q[1]) && q[1] != '.'))) {
            /* a lone 0, most counts: what uint_dec reads */
            out->issued[g][k] = (fsc_fdec){0, 0, 0};
            q++;
        } else if (!(q = uint_dec(q, e, &out->issued[g][k]))) {
            return NULL;
        }
        k++;
        char sep = legacy ? '/' : ',';
        if (q < e && *q == sep && q + 1 < e && (legacy || is_digit(q[1]))) {
            q++;
            continue;
        }
        break;
    }
    if (legacy && k < 2)
        return NULL;
    out->n_issued[g] = k;
    return q;
}

/* The ends of fio's issued lines when no I/O was short or dropped (nearly all of them),
 * each right after the totals: read as one literal, and their counts set as the
 * issued_group calls for them would read them. n_dropped 0: no dropped part. Any other
 * end (other counts, trailing spaces) is read the long way. */
typedef struct zero_tail {
    const char *text;
    uint8_t len, n_short, n_dropped;
} zero_tail;
#define ZERO_TAIL(s, n_short, n_dropped) {s, sizeof(s) - 1, n_short, n_dropped}
static const zero_tail modern_zero_tails[] = {
    ZERO_TAIL(" short=0,0,0,0 dropped=0,0,0,0", 4, 4), /* 3.x "issued rwts:" */
    ZERO_TAIL(", short=0,0,0, dropped=0,0,0", 3, 3),   /* 2.x "issued rwt:" */
};
static const zero_tail legacy_zero_tails[] = {
    ZERO_TAIL(", short=r=0/w=0/d=0, drop=r=0/w=0/d=0", 3, 3),
    ZERO_TAIL(", short=r=0/w=0/d=0", 3, 0),
};

static void zero_counts(fsc_fastline *out, int g, uint8_t n)
{
    for (uint8_t k = 0; k < n; k++)
        out->issued[g][k] = (fsc_fdec){0, 0, 0};
    out->n_issued[g] = n;
}

static bool zero_tail_at(const zero_tail *tails, size_t n, const char *r, const char *e, fsc_fastline *out)
{
    for (size_t i = 0; i < n; i++) {
        const zero_tail *z = &tails[i];
        if ((size_t)(e - r) == z->len && memcmp(r, z->text, z->len) == 0) {
            zero_counts(out, 1, z->n_short);
            zero_counts(out, 2, z->n_dropped);
            return true;
        }
    }
    return false;
}

/* "     issued rwts: total=0,36673,0,0 short=0,0,0,0 dropped=0,0,0,0" (issued;
 * issued-legacy, tried first, needs ':' right after "issued") and
 * "     issued    : total=r=57365/w=24336/d=0, short=r=0/w=0/d=0, drop=r=0/w=0/d=0". */
static __attribute__((noinline)) const fsc_rule *lex_issued(const fsc_fastpath *fp, const char *q, const char *e,
                                                            fsc_fastline *out)
{
    memset(out->n_issued, 0, sizeof out->n_issued);
    const char *r;
    if ((r = LIT(q, e, " rwts:")) || (r = LIT(q, e, " rwt:"))) {
        r = skip_sp(r, e);
        if (!(r = LIT(r, e, "total=")) || !(r = issued_group(r, e, false, out, 0)))
            return NULL;
        if (zero_tail_at(modern_zero_tails, FSC_ARRAY_SIZE(modern_zero_tails), r, e, out))
            return fp->rule[FR_ISSUED];
        if (r < e && *r == ',')
            r++;
        if (r >= e || *r != ' ' || !(r = LIT(skip_sp(r, e), e, "short=")) || !(r = issued_group(r, e, false, out, 1)))
            return NULL;
        if (r < e && *r == ',')
            r++;
        if (r >= e || *r != ' ' || !(r = LIT(skip_sp(r, e), e, "dropped=")) ||
            !(r = issued_group(r, e, false, out, 2)) || !at_end(r, e))
            return NULL;
        return fp->rule[FR_ISSUED];
    }
    r = skip_sp(q, e);
    if (r >= e || *r != ':')
        return NULL;
    r = skip_sp(r + 1, e);
    if (!(r = LIT(r, e, "total=")) || !(r = issued_group(r, e, true, out, 0)))
        return NULL;
    if (zero_tail_at(legacy_zero_tails, FSC_ARRAY_SIZE(legacy_zero_tails), r, e, out))
        return fp->rule[FR_ISSUED_LEGACY];
    if (!(r = LIT(r, e, ",")))
        return NULL;
    r = skip_sp(r, e);
    if (!(r = LIT(r, e, "short=")) || !(r = issued_group(r, e, true, out, 1)))
        return NULL;
    if (r < e && *r == ',') {
        r = skip_sp(r + 1, e);
        if (!(r = LIT(r, e, "drop=")) || !(r = issued_group(r, e, true, out, 2)))
            return NULL;
    }
    if (!at_end(r, e))
        return NULL;
    return fp->rule[FR_ISSUED_LEGACY];
}

/* A lead must end at a word boundary when it ends in a letter (fsc_grammar_match). */
static inline bool word_end(const char *q, const char *e)
{
    if (q >= e)
        return true;
    char c = *q;
    return !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_');
}

/* "  cpu          : usr=1.94%, ..." (cpu, the only rule of lead "cpu"),
 * "     latency   : target=0, ..." (latency-target, the only rule of "latency"),
 * "   iops        : min=..." (iops-stats), "   bw (  KiB/s): min=..." (bw-stats). */
static inline const fsc_rule *lex_kv_line(const kvspec *k, const fsc_rule *r, const char *q, const char *e,
                                          fsc_fastline *out)
{
    q = skip_sp(q, e);
    if (q >= e || *q != ':')
        return NULL;
    q = skip_sp(q + 1, e);
    return kv_list(k, r, q, e, out);
}

/* latency-target: lex_kv_line, its usual list (latency_list_usual) taken as read at
 * set-up */
static __attribute__((noinline)) const fsc_rule *lex_latency(const fsc_fastpath *fp, const char *q, const char *e,
                                                             fsc_fastline *out)
{
    const kv_literal *l = &fp->latency_usual;
    q = skip_sp(q, e);
    if (q >= e || *q != ':')
        return NULL;
    q = skip_sp(q + 1, e);
    if (l->n && (size_t)(e - q) == sizeof latency_list_usual - 1 &&
        fsc_same_bytes(q, latency_list_usual, sizeof latency_list_usual - 1)) {
        memcpy(out->key, l->key, sizeof out->key);
        memcpy(out->kv, l->kv, sizeof out->kv);
        out->n = l->n;
        out->kvdef = fp->kv_latency.kv;
        out->kvfield = fp->kv_latency.field;
        return fp->rule[FR_LATENCY];
    }
    return kv_list(&fp->kv_latency, fp->rule[FR_LATENCY], q, e, out);
}

/* bw-stats: "bw (  KiB/s):", "bw (KB  /s):", "bw (MB/s)  :" then the kv list. The
 * pattern needs a ',' after the first value: at least two values. */
static __attribute__((noinline)) const fsc_rule *lex_bw(const fsc_fastpath *fp, const char *s, const char *q,
                                                        const char *e, fsc_fastline *out)
{
    q = skip_sp(q, e);
    if (!(q = LIT(q, e, "(")))
        return NULL;
    q = skip_sp(q, e);
    const char *u = q;
    /* the pattern allows [KMGTkm]; normal.c's bwstat_factor reads K, k, M, m, G, B
     * only (a "TiB" line gets "cannot read" warnings there): leave that to the grammar */
    if (q < e && (*q == 'K' || *q == 'k' || *q == 'M' || *q == 'm' || *q == 'G'))
        q++;
    else if (q >= e || *q != 'B')
        return NULL;
    if (q < e && *q == 'i')
        q++;
    const char *r;
    if ((r = LIT(q, e, "bit")))
        q = r;
    else if (q < e && *q == 'B')
        q++;
    else
        return NULL;
    out->unit = span(s, u, q);
    q = skip_sp(q, e);
    if (!(q = LIT(q, e, "/s)")))
        return NULL;
    const fsc_rule *rr = lex_kv_line(&fp->kv_bw, fp->rule[FR_BW], q, e, out);
    /* the pattern wants two values and a plain number first (no '%') */
    return rr && out->n >= 2 && out->kvdef[out->key[0]]->kind != FSC_K_PCT ? rr : NULL;
}

/* iops-stats: "   iops        : min=..." (q after "iops"). The pattern wants two
 * values and a plain number first. */
static __attribute__((noinline)) const fsc_rule *lex_iops(const fsc_fastpath *fp, const char *q, const char *e,
                                                          fsc_fastline *out)
{
    const fsc_rule *r = lex_kv_line(&fp->kv_iops, fp->rule[FR_IOPS], q, e, out);
    return r && out->n >= 2 && out->kvdef[out->key[0]]->kind != FSC_K_PCT ? r : NULL;
}

/* ---- the lines fio prints once per job or run ---- */

/* The unit texts fio prints after a size or a rate ("MiB/s", "KiB", "MB/s"): a prefix
 * letter, an 'i' or none, 'B', and "/s" for a rate. Read here in place, as
 * fsc_bytes_unit reads them, without its call and its walk over the text (some 75
 * instructions, four times on each group line, three on each dir line); false for any
 * other text, left to fsc_bytes_unit. */
static inline bool fio_bytes_unit(const char *u, size_t un, bool rate, fsc_bytes_text *b)
{
    if (rate) {
        if (un < 2 || u[un - 2] != '/' || u[un - 1] != 's')
            return false;
        un -= 2;
    }
    bool iec = un == 3 && u[1] == 'i';
    if (!(iec || un == 2) || u[un - 1] != 'B')
        return false;
    int power = fsc_size_power(u[0]);
    if (!power)
        return false;
    b->power = (uint8_t)power;
    b->iec = iec;
    b->bits = false;
    return true;
}

/* Does the span parse as the grammar's convert() would read it (fsc_parse_*)? Size
 * and rate syntax does not depend on the era, only their value: those are kept as
 * read (fsc_bytes_text), the rest as their number, for normal.c to use. */
static bool read_value(fsc_kind kind, const char *s, size_t n, const fsc_fdec *read, size_t read_len, fsc_num *v,
                       fsc_bytes_text *b)
{
    /* the usual "8092.9k", "2001", "42.8MiB/s": the number read here, as
     * fsc_decimal_parse would (dec takes no sign, spaces or "5."; those, and numbers
     * dec leaves, go the long way below); read: that number as the lexer read it at
     * s (read_len bytes), where it did */
    const char *e = s + n, *q;
    fsc_fdec d;
    if (kind == FSC_K_PCT && n && e[-1] == '%')
        e--;
    if (read_len)
        d = *read, q = s + read_len;
    else
        q = dec(s, e, &d);
    if (q != NULL) {
        switch (kind) {
        case FSC_K_INT:
        case FSC_K_PLAIN:
        case FSC_K_PCT:
            if (q != e)
                break;
            fsc_fdec_set(v, d, 1, 1);
            return true;
        case FSC_K_COUNT:
            if (q == e || (q + 1 == e && count_suffix(*q))) {
                fsc_fdec_set(v, d, q == e ? 1 : fsc_count_prefix(*q), 1);
                return true;
            }
            break;
        case FSC_K_SIZE:
        case FSC_K_RATE:
            b->d = (fsc_decimal){d.mant, d.scale, false};
            return fio_bytes_unit(q, (size_t)(e - q), kind == FSC_K_RATE, b) ||
                   fsc_bytes_unit(q, (size_t)(e - q), kind == FSC_K_RATE, b) == FSC_OK;
        default:
            return false;
        }
    }
    switch (kind) {
    case FSC_K_INT:
    case FSC_K_PLAIN: return fsc_parse_plain_num(s, n, v) == FSC_OK;
    case FSC_K_COUNT: return fsc_parse_count_num(s, n, v) == FSC_OK;
    case FSC_K_SIZE: return fsc_bytes_read(s, n, false, b) == FSC_OK;
    case FSC_K_RATE: return fsc_bytes_read(s, n, true, b) == FSC_OK;
    case FSC_K_PCT: return fsc_parse_pct_num(s, n, v) == FSC_OK;
    default: return false;
    }
}

/* Every capture of a span rule converts without a warning; its value is kept. The
 * captures of the slots in `done` (bit k: slot k) were converted by the lexer. */
static bool caps_valid(const char *s, fsc_fastline *out, unsigned done)
{
    for (size_t i = 0; i < out->n_caps; i++) {
        uint8_t k = out->caps[i].slot;
        fsc_fspan c = out->cap[k];
        if (c.len && !(done >> k & 1) &&
            !read_value(out->caps[i].kind, s + c.off, c.len, &out->capdec[k], out->capdec_len[k], &out->capnum[k],
                        &out->capbytes[k]))
            return false;
    }
    return true;
}

/* The lexers' conversions of a capture that is the decimal read at its start (slot k:
 * capdec) and the text they found after it, as read_value converts it. Always inlined:
 * GCC called them out of line, once a capture, when fsc_fdec_set was inlined in them. */

/* a count ("18.2k"): suffix, one of fio's count prefixes, or 0 */
static inline __attribute__((always_inline)) void count_done(fsc_fastline *out, unsigned k, char suffix)
{
    fsc_fdec_set(&out->capnum[k], out->capdec[k], suffix ? fsc_count_prefix(suffix) : 1, 1);
}

/* an int or a percent: the decimal alone */
static inline __attribute__((always_inline)) void number_done(fsc_fastline *out, unsigned k)
{
    fsc_fdec_set(&out->capnum[k], out->capdec[k], 1, 1);
}

/* a size or rate whose unit is a prefix letter, 'i' or none, 'B' and, for a rate,
 * "/s" (what fio_bytes_unit reads) */
static inline __attribute__((always_inline)) void bytes_done(fsc_fastline *out, unsigned k, char prefix, bool iec)
{
    fsc_bytes_text *b = &out->capbytes[k];
    b->d = (fsc_decimal){out->capdec[k].mant, out->capdec[k].scale, false};
    b->power = (uint8_t)fsc_size_power_of(prefix);
    b->iec = iec;
    b->bits = false;
}

/* Such a unit at q, up to the end of a capture that ends there (no text but the unit
 * between the number and the end): the end, with iec told; NULL for any other text. */
static inline const char *fio_unit_at(const char *q, const char *e, bool rate, bool *iec)
{
    if (e - q < 2 || !fsc_size_power_of(q[0]))
        return NULL;
    *iec = q[1] == 'i';
    const char *u = q + 1 + *iec;
    if (u >= e || *u != 'B')
        return NULL;
    u++;
    if (rate) {
        if (e - u < 2 || u[0] != '/' || u[1] != 's')
            return NULL;
        u += 2;
    }
    return u;
}

/* c is one of the letters of the literal set (not its NUL): compares in place, the
 * loop over a literal unrolled (strchr was a call per unit letter) */
static inline __attribute__((always_inline)) bool in_set(char c, const char *set)
{
    for (; *set; set++)
        if (c == *set)
            return true;
    return false;
}

/* [\d.]+ : the end, or NULL when empty */
static inline const char *digits_dots(const char *p, const char *e)
{
    const char *q = p;
    while (q < e && (is_digit(*q) || *q == '.'))
        q++;
    return q > p ? q : NULL;
}

static inline const char *digits(const char *p, const char *e)
{
    const char *q = p;
    while (q < e && is_digit(*q))
        q++;
    return q > p ? q : NULL;
}

/* The captures of the span rules begin with a number, nearly always a decimal: dec
 * reads it as the capture's end is looked for, kept for caps_valid in the capture's
 * slot k (out->capdec), and the end is where the scan for it would have stopped.
 * Where it is no decimal, the scan alone. */

/* The decimal at p kept for slot k: its end, or NULL (none kept). */
static inline const char *number_read(const char *p, const char *e, fsc_fastline *out, unsigned k)
{
    const char *q = dec(p, e, &out->capdec[k]);
    if (q)
        out->capdec_len[k] = (uint8_t)(q - p);
    return q;
}

/* digits_dots at p: dec's end when no '.' follows it (a point is [\d.]'s and no
 * digit stops dec) */
static inline const char *digits_dots_read(const char *p, const char *e, fsc_fastline *out, unsigned k)
{
    const char *q = number_read(p, e, out, k);
    if (q && (q == e || *q != '.'))
        return q;
    out->capdec_len[k] = 0;
    return digits_dots(p, e);
}

/* digits at p: dec's end when it read no point (then no '.' stopped it) */
static inline const char *digits_read(const char *p, const char *e, fsc_fastline *out, unsigned k)
{
    const char *q = number_read(p, e, out, k);
    if (q && !out->capdec[k].scale)
        return q;
    out->capdec_len[k] = 0;
    return digits(p, e);
}

/* "  write: IOPS=18.2k, BW=71.2MiB/s (74.7MB/s)(143MiB/2012msec); 0 zone resets"
 * (dir; dir-legacy, tried first by lead, needs "io=" there). */
static __attribute__((noinline)) const fsc_rule *lex_dir(const fsc_fastpath *fp, const char *s, const char *q,
                                                         const char *e, fsc_fastline *out)
{
    const char *a;
    char prefix;
    bool iec, bytes;
    unsigned done = 0; /* the slots converted here (caps_valid) */
    memset(out->cap, 0, sizeof out->cap);
    memset(out->capdec_len, 0, sizeof out->capdec_len);
    if (!(q = LIT(q, e, "IOPS=")) || !(a = q, q = digits_dots_read(q, e, out, 0)))
        return NULL;
    prefix = q < e && in_set(*q, "kMGTPE") ? *q : 0;
    if (out->capdec_len[0])
        count_done(out, 0, prefix), done |= 1u << 0;
    q += prefix != 0;
    out->cap[0] = span(s, a, q);
    if (!(q = LIT(q, e, ",")) || !(q = LIT(skip_sp(q, e), e, "BW=")) || !(a = q, q = digits_dots_read(q, e, out, 1)))
        return NULL;
    prefix = q < e && in_set(*q, "KMGTPEk") ? *q : 0;
    q += prefix != 0;
    if ((iec = q < e && *q == 'i'))
        q++;
    bytes = false;
    if (LIT(q, e, "bit"))
        q += 3;
    else if (q < e && *q == 'B')
        q++, bytes = true;
    if (LIT(q, e, "/s")) {
        q += 2;
        if (prefix && bytes && out->capdec_len[1])
            bytes_done(out, 1, prefix, iec), done |= 1u << 1;
    }
    out->cap[1] = span(s, a, q);
    q = skip_sp(q, e);
    if (q >= e || *q != '(')
        return NULL;
    const char *close = paren_close(q, e);
    if (!close)
        return NULL;
    q = skip_sp(close + 1, e);
    if (!(q = LIT(q, e, "(")) || !(a = q, q = digits_dots_read(q, e, out, 2)))
        return NULL;
    prefix = q < e && in_set(*q, "KMGTPEk") ? *q : 0;
    q += prefix != 0;
    if ((iec = q < e && *q == 'i'))
        q++;
    if (q < e && *q == 'B') {
        q++;
        if (prefix && out->capdec_len[2])
            bytes_done(out, 2, prefix, iec), done |= 1u << 2;
    }
    out->cap[2] = span(s, a, q);
    if (!(q = LIT(q, e, "/")) || !(a = q, q = digits_read(q, e, out, 3)))
        return NULL;
    out->cap[3] = span(s, a, q);
    if (out->capdec_len[3])
        number_done(out, 3), done |= 1u << 3;
    if (!(q = LIT(q, e, "msec)")))
        return NULL;
    if ((a = LIT(q, e, "; ")) && (a = digits_read(q + 2, e, out, 4)) != NULL && LIT(a, e, " zone reset")) {
        out->cap[4] = span(s, q + 2, a);
        if (out->capdec_len[4])
            number_done(out, 4), done |= 1u << 4;
        q = a + 11;
        if (q < e && *q == 's')
            q++;
    }
    if ((a = LIT(q, e, "; Cachehit=")) != NULL) {
        const char *b = digits_dots(a, e);
        if (!b || b >= e || *b != '%')
            return NULL;
        out->cap[5] = span(s, a, b);
        q = b + 1;
    }
    if (!at_end(q, e))
        return NULL;
    out->caps = fp->dir.caps;
    out->n_caps = fp->dir.n;
    unsigned present = 0xF | (out->cap[4].len ? 1u << 4 : 0) | (out->cap[5].len ? 1u << 5 : 0);
    return !(present & ~done) || caps_valid(s, out, done) ? fp->rule[FR_DIR] : NULL;
}

/* "  read : io=417152KB, bw=208472KB/s, iops=52117, runt=  2001msec" (dir-legacy). */
static __attribute__((noinline)) const fsc_rule *lex_dir_legacy(const fsc_fastpath *fp, const char *s, const char *q,
                                                                const char *e, fsc_fastline *out)
{
    const char *a;
    char prefix;
    bool bytes;
    unsigned done = 0; /* the slots converted here (caps_valid) */
    memset(out->cap, 0, sizeof out->cap);
    memset(out->capdec_len, 0, sizeof out->capdec_len);
    if (!(q = LIT(q, e, "io=")) || !(a = q, q = digits_dots_read(q, e, out, 2)))
        return NULL;
    prefix = q < e && in_set(*q, "KMGTPE") ? *q : 0;
    q += prefix != 0;
    if (!(q = LIT(q, e, "B")))
        return NULL;
    if (prefix && out->capdec_len[2])
        bytes_done(out, 2, prefix, false), done |= 1u << 2;
    out->cap[2] = span(s, a, q);
    q = skip_sp(q, e);
    if (!(q = LIT(q, e, ",")) || !(q = LIT(skip_sp(q, e), e, "bw=")) || !(a = q, q = digits_dots_read(q, e, out, 1)))
        return NULL;
    prefix = q < e && in_set(*q, "KMGTPE") ? *q : 0;
    q += prefix != 0;
    bytes = false;
    if (LIT(q, e, "bit"))
        q += 3;
    else if (!(q = LIT(q, e, "B")))
        return NULL;
    else
        bytes = true;
    if (!(q = LIT(q, e, "/s")))
        return NULL;
    if (prefix && bytes && out->capdec_len[1])
        bytes_done(out, 1, prefix, false), done |= 1u << 1;
    out->cap[1] = span(s, a, q);
    q = skip_sp(q, e);
    if (!(q = LIT(q, e, ",")) || !(q = LIT(skip_sp(q, e), e, "iops=")) || !(a = q, q = digits_dots_read(q, e, out, 0)))
        return NULL;
    prefix = q < e && in_set(*q, "KMGTPE") ? *q : 0;
    if (out->capdec_len[0])
        count_done(out, 0, prefix), done |= 1u << 0;
    q += prefix != 0;
    out->cap[0] = span(s, a, q);
    q = skip_sp(q, e);
    if (!(q = LIT(q, e, ",")) || !(q = LIT(skip_sp(q, e), e, "runt=")) ||
        !(a = skip_sp(q, e), q = digits_read(a, e, out, 3)))
        return NULL;
    out->cap[3] = span(s, a, q);
    if (out->capdec_len[3])
        number_done(out, 3), done |= 1u << 3;
    if (!(q = LIT(skip_sp(q, e), e, "msec")) || !at_end(q, e))
        return NULL;
    out->caps = fp->dir_legacy.caps;
    out->n_caps = fp->dir_legacy.n;
    return done == 0xF || caps_valid(s, out, done) ? fp->rule[FR_DIR_LEGACY] : NULL;
}

/* A value of a modern group line: [^\s,(]+ (bw_min: also no '-'). */
static inline const char *gtoken_end(const char *q, const char *e, bool no_dash)
{
    while (q < e && *q != ' ' && *q != ',' && *q != '(' && !(no_dash && *q == '-'))
        q++;
    return q;
}

static inline const char *gtoken(const char *p, const char *e, bool no_dash)
{
    const char *q = gtoken_end(p, e, no_dash);
    return q > p ? q : NULL;
}

/* gtoken at p, a size or rate (slot k), its number read (number_read: no digit or
 * point ends a token): converted (bit k of *done) where the token is the number and
 * fio's unit (fio_unit_at), and so ends after the unit */
static inline const char *gtoken_bytes_read(const char *p, const char *e, bool no_dash, bool rate,
                                            fsc_fastline *out, unsigned k, unsigned *done)
{
    const char *q = number_read(p, e, out, k), *u;
    bool iec;
    if (!q)
        return gtoken(p, e, no_dash);
    if ((u = fio_unit_at(q, e, rate, &iec)) && gtoken_end(u, e, no_dash) == u) {
        bytes_done(out, k, *q, iec);
        *done |= 1u << k;
        /* done is opaque to the compiler from here: else GCC carries every mask a path
         * through lex_group_dir can reach as a constant of its own (15 stack stores and
         * their loads on each line) */
        __asm__("" : "+r"(*done));
        return u;
    }
    return gtoken_end(q, e, no_dash);
}

/* a[0, n) == b[0, n) for n <= 16, eight bytes readable at each: one or two words */
static inline bool same_short(const char *a, const char *b, size_t n)
{
    if (n <= 8) {
        uint64_t mask = n == 8 ? ~0ULL : (1ULL << (8 * n)) - 1;
        return ((fsc_load_le64(a) ^ fsc_load_le64(b)) & mask) == 0;
    }
    return n <= 16 && fsc_load_le64(a) == fsc_load_le64(b) && fsc_load_le64(a + n - 8) == fsc_load_le64(b + n - 8);
}

/* An optional "(...)" after spaces, then the comma: p after the comma. */
static inline const char *paren_comma(const char *p, const char *e)
{
    p = skip_sp(p, e);
    if (p < e && *p == '(') {
        const char *close = paren_close(p, e);
        if (!close)
            return NULL;
        p = close + 1;
    }
    return LIT(p, e, ",");
}

/* "   READ: bw=3347MiB/s (3510MB/s), 3347MiB/s-3347MiB/s (3510MB/s-3510MB/s),
 * io=6695MiB (7020MB), run=2000-2000msec" (group-dir; group-dir-legacy, tried
 * first by lead, needs "io=" there). */
static __attribute__((noinline)) const fsc_rule *lex_group_dir(const fsc_fastpath *fp, const char *s, const char *q,
                                                               const char *e, fsc_fastline *out)
{
    const char *a;
    unsigned done = 0; /* the slots converted here (caps_valid) */
    memset(out->cap, 0, sizeof out->cap);
    memset(out->capdec_len, 0, sizeof out->capdec_len);
    if (!(q = LIT(q, e, "bw=")) || !(a = q, q = gtoken_bytes_read(q, e, false, true, out, 0, &done)))
        return NULL;
    out->cap[0] = span(s, a, q);
    size_t bw_len = (size_t)(q - a);
    const char *bw = a;
    if (!(q = paren_comma(q, e)))
        return NULL;
    a = skip_sp(q, e);
    const char *max_at, *end;
    if ((done & 1) && (size_t)(e - a) >= 2 * bw_len + 9 && a[bw_len] == '-' && same_short(a, bw, bw_len) &&
        (max_at = a + bw_len + 1, end = max_at + bw_len, same_short(max_at, bw, bw_len)) &&
        (*end == ' ' || *end == ',' || *end == '(')) {
        /* a group of one job: min and max are bw's text ("42.8MiB/s-42.8MiB/s"), which
         * has no '-' (a number and fio's unit): each token would be read as bw's was, up
         * to the '-' and up to the byte after it (no byte of a token) */
        out->capdec[1] = out->capdec[2] = out->capdec[0];
        out->capdec_len[1] = out->capdec_len[2] = out->capdec_len[0];
        out->capbytes[1] = out->capbytes[2] = out->capbytes[0];
        out->cap[1] = span(s, a, a + bw_len);
        out->cap[2] = span(s, max_at, end);
        done |= 6;
        q = end;
    } else {
        if (!(q = gtoken_bytes_read(a, e, true, true, out, 1, &done)))
            return NULL;
        out->cap[1] = span(s, a, q);
        if (!(q = LIT(q, e, "-")) || !(a = q, q = gtoken_bytes_read(q, e, false, true, out, 2, &done)))
            return NULL;
        out->cap[2] = span(s, a, q);
    }
    if (!(q = paren_comma(q, e)) || !(q = LIT(skip_sp(q, e), e, "io=")) ||
        !(a = q, q = gtoken_bytes_read(q, e, false, false, out, 3, &done)))
        return NULL;
    out->cap[3] = span(s, a, q);
    if (!(q = paren_comma(q, e)) || !(q = LIT(skip_sp(q, e), e, "run=")) || !(a = q, q = digits_read(q, e, out, 4)))
        return NULL;
    out->cap[4] = span(s, a, q);
    if (!(q = LIT(q, e, "-")) || !(a = q, q = digits_read(q, e, out, 5)))
        return NULL;
    out->cap[5] = span(s, a, q);
    if (!(q = LIT(skip_sp(q, e), e, "msec")) || !at_end(q, e))
        return NULL;
    if (out->capdec_len[4])
        number_done(out, 4), done |= 1u << 4;
    if (out->capdec_len[5])
        number_done(out, 5), done |= 1u << 5;
    out->caps = fp->group_dir.caps;
    out->n_caps = fp->group_dir.n;
    return done == 0x3F || caps_valid(s, out, done) ? fp->rule[FR_GROUP_DIR] : NULL;
}

/* A legacy group value: [^,]+? before optional spaces and a ',' (no inner spaces). */
static inline const char *ltoken_end(const char *q, const char *e)
{
    while (q < e && *q != ' ' && *q != ',')
        q++;
    return q;
}

static inline const char *ltoken(const char *p, const char *e)
{
    const char *q = ltoken_end(p, e);
    return q > p ? q : NULL;
}

/* ltoken at p, a size or rate, read and converted as gtoken_bytes_read reads a gtoken */
static inline const char *ltoken_bytes_read(const char *p, const char *e, bool rate, fsc_fastline *out, unsigned k,
                                            unsigned *done)
{
    const char *q = number_read(p, e, out, k), *u;
    bool iec;
    if (!q)
        return ltoken(p, e);
    if ((u = fio_unit_at(q, e, rate, &iec)) && ltoken_end(u, e) == u) {
        bytes_done(out, k, *q, iec);
        *done |= 1u << k;
        return u;
    }
    return ltoken_end(q, e);
}

/* "   READ: io=417152KB, aggrb=208471KB/s, minb=208471KB/s, maxb=208471KB/s,
 * mint=2001msec, maxt=2001msec" (group-dir-legacy). */
static __attribute__((noinline)) const fsc_rule *lex_group_dir_legacy(const fsc_fastpath *fp, const char *s,
                                                                      const char *q, const char *e, fsc_fastline *out)
{
    /* the capture slot of io=, aggrb=, minb= and maxb= */
    static const uint8_t slot[] = {3, 0, 1, 2};
    const char *a;
    unsigned done = 0; /* the slots converted here (caps_valid) */
    memset(out->cap, 0, sizeof out->cap);
    memset(out->capdec_len, 0, sizeof out->capdec_len);
    for (size_t i = 0; i < 4; i++) {
        if (i && !(q = LIT(skip_sp(skip_sp(q, e), e), e, ",")))
            return NULL;
        q = skip_sp(q, e);
        /* each key as a literal: no strlen and memcmp calls */
        q = i == 0 ? LIT(q, e, "io=") : i == 1 ? LIT(q, e, "aggrb=") : i == 2 ? LIT(q, e, "minb=") : LIT(q, e, "maxb=");
        if (!q)
            return NULL;
        a = q;
        size_t aggr_len = out->cap[0].len;
        if (i >= 2 && (done & 1) && (size_t)(e - a) >= aggr_len + 9 && same_short(a, s + out->cap[0].off, aggr_len) &&
            (a[aggr_len] == ' ' || a[aggr_len] == ',')) {
            /* a group of one job: minb and maxb are aggrb's text, read as aggrb's was */
            out->capdec[slot[i]] = out->capdec[0];
            out->capdec_len[slot[i]] = out->capdec_len[0];
            out->capbytes[slot[i]] = out->capbytes[0];
            done |= 1u << slot[i];
            q = a + aggr_len;
        } else if (!(q = ltoken_bytes_read(q, e, i != 0, out, slot[i], &done))) {
            return NULL;
        }
        out->cap[slot[i]] = span(s, a, q);
    }
    if (!(q = LIT(skip_sp(q, e), e, ",")) || !(q = LIT(skip_sp(q, e), e, "mint=")) ||
        !(a = skip_sp(q, e), q = digits_read(a, e, out, 4)))
        return NULL;
    out->cap[4] = span(s, a, q);
    if (!(q = LIT(skip_sp(q, e), e, "msec")) || !(q = LIT(skip_sp(q, e), e, ",")) ||
        !(q = LIT(skip_sp(q, e), e, "maxt=")) || !(a = skip_sp(q, e), q = digits_read(a, e, out, 5)))
        return NULL;
    out->cap[5] = span(s, a, q);
    if (!(q = LIT(skip_sp(q, e), e, "msec")) || !at_end(q, e))
        return NULL;
    if (out->capdec_len[4])
        number_done(out, 4), done |= 1u << 4;
    if (out->capdec_len[5])
        number_done(out, 5), done |= 1u << 5;
    out->caps = fp->group_dir_legacy.caps;
    out->n_caps = fp->group_dir_legacy.n;
    return done == 0x3F || caps_valid(s, out, done) ? fp->rule[FR_GROUP_DIR_LEGACY] : NULL;
}

/* The bytes of a date, by table: [A-Za-z0-9 :] 1, and 'L' 3 (its 2: an 'L' seen). */
static const unsigned char date_set[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* Per byte of w, the high bit: set where byte b >= c (c <= 0x80): with the high bits
 * set first, a byte's subtraction cannot borrow from the next one; a byte's own high
 * bit is not looked at (b is read as b & 0x7f). */
#define BYTES_AT_LEAST(w, c) ((((w) | 0x8080808080808080ULL) - FSC_BYTES_OF(c)) & 0x8080808080808080ULL)

/* The high bit of each byte of w that is not a date's (date_set: [A-Za-z0-9 :]). */
static inline uint64_t date_misfits(uint64_t w)
{
    const uint64_t high = 0x8080808080808080ULL;
    uint64_t l = w | 0x2020202020202020ULL; /* letters in lower case */
    uint64_t letter = BYTES_AT_LEAST(l, 'a') & ~BYTES_AT_LEAST(l, 'z' + 1);
    uint64_t digit_colon = BYTES_AT_LEAST(w, '0') & ~BYTES_AT_LEAST(w, ':' + 1);
    uint64_t space = BYTES_AT_LEAST(w, ' ') & ~BYTES_AT_LEAST(w, ' ' + 1);
    return (w & high) | (high & ~(letter | digit_colon | space));
}

/* The date fio prints after the pid ("Mon Nov 30 02:48:07 2026"): letters, digits,
 * spaces and colons hold none of the needles of the generic rules before "job". Eight
 * bytes a step (the last eight of the line last, some of them again), where eight are
 * there. */
static bool date_chars(const char *p, const char *e, bool *has_L)
{
    if (e - p >= 8) {
        uint64_t bad = 0, ls = 0, w;
        for (; e - p > 8; p += 8) {
            w = fsc_load_le64(p);
            bad |= date_misfits(w);
            ls |= fsc_zero_bytes(w ^ FSC_BYTES_OF('L'));
        }
        w = fsc_load_le64(e - 8);
        bad |= date_misfits(w);
        ls |= fsc_zero_bytes(w ^ FSC_BYTES_OF('L'));
        *has_L = ls != 0;
        return !bad;
    }
    unsigned seen = 0;
    for (; p < e; p++) {
        unsigned c = date_set[(unsigned char)*p];
        if (!c)
            return *has_L = false;
        seen |= c;
    }
    *has_L = seen & 2;
    return true;
}

/* "randwrite: (groupid=0, jobs=1): err= 0: pid=31905: Mon Nov 30 02:48:07 2026" */
static const fsc_rule *lex_job(const fsc_fastpath *fp, const char *q, const char *e, fsc_fastline *out)
{
    const char *a;
    q += 11; /* ": (groupid=" */
    if (!(q = uint_dec(q, e, &out->num[0])) || !(q = LIT(q, e, ", jobs=")) || !(q = uint_dec(q, e, &out->num[1])) ||
        !(q = LIT(q, e, "): err=")) || !(q = uint_dec(skip_sp(q, e), e, &out->num[2])) ||
        !(q = LIT(q, e, ": pid=")) || !(q = uint_dec(q, e, &out->num[3])))
        return NULL;
    /* the layout rule (tried before job) would take ": Laying out IO file" anywhere
     * (a date has no 'L': only then is it looked for) */
    bool has_L;
    if (q < e && !((a = LIT(q, e, ": ")) && date_chars(a, e, &has_L) &&
                   !(has_L && memmem(q, (size_t)(e - q), ": Laying out IO file", 20))))
        return NULL;
    return fp->rule[FR_JOB];
}

/* The first ':' or '=' of [p, e), or e: eight bytes a step. A zero byte of w ^ c
 * marks a c; the borrow test flags the first zero byte exactly and may flag bytes
 * above it, never below: the lowest flag of either mask is the first match. */
static inline const char *colon_or_eq(const char *p, const char *e)
{
    while (e - p >= 8) {
        uint64_t w = fsc_load_le64(p);
        uint64_t z = fsc_zero_bytes(w ^ FSC_BYTES_OF(':')) | fsc_zero_bytes(w ^ FSC_BYTES_OF('='));
        if (z)
            return p + (__builtin_ctzll(z) >> 3);
        p += 8;
    }
    while (p < e && *p != ':' && *p != '=')
        p++;
    return p;
}

/* A byte of an option value: printable, no space, none of ",:=()" (by table). */
static const unsigned char opt_chars[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 0, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static inline bool opt_char(char c)
{
    return opt_chars[(unsigned char)c];
}

/* rw=, bs=, ioengine=, iodepth= of a job definition: the values are plain tokens. */
static const char *opt_token(const char *p, const char *e)
{
    const char *q = p;
    while (q < e && opt_char(*q))
        q++;
    return q > p ? q : NULL;
}

/* [0-9.]+[KMGPE]? of a legacy block size */
static const char *legacy_bs(const char *p, const char *e)
{
    const char *q = digits_dots(p, e);
    if (q && q < e && in_set(*q, "KMGPE"))
        q++;
    return q;
}

/* "seqread: (g=0): rw=read, bs=(R) 1024KiB-1024KiB, (W) 1024KiB-1024KiB, (T)
 * 1024KiB-1024KiB, ioengine=psync, iodepth=1" (jobdef; jobdef-legacy, the first
 * generic rule, needs digits after "bs=") and "mixed: (g=0): rw=randrw,
 * bs=4K-4K/4K-4K/4K-4K, ioengine=libaio, iodepth=8" (jobdef-legacy). */
static const fsc_rule *lex_jobdef(const fsc_fastpath *fp, const char *s, const char *q, const char *e,
                                  fsc_fastline *out)
{
    const char *a, *b;
    bool legacy;
    q += 5; /* ": (g=" */
    if (!(q = uint_dec(q, e, &out->num[0])) || !(q = LIT(q, e, "): rw=")) || !(a = q, q = opt_token(q, e)))
        return NULL;
    out->cap[1] = span(s, a, q);
    if (!(q = LIT(q, e, ", bs=")))
        return NULL;
    const char *desc = q; /* the block sizes as printed, up to ", ioengine=" (cap[5]) */
    if ((b = LIT(q, e, "(R) "))) { /* 3.x: the bs is the read size; the rest is free text */
        legacy = false;
        a = skip_sp(b, e);
        q = a;
        while (q < e && *q != '-' && *q != ',' && *q != ' ')
            q++;
        if (q == a)
            return NULL;
        out->cap[2] = span(s, a, q);
        /* the first ", ioengine=" after q, with no ':' or '=' from b up to it: that
         * '=' is the first ':' or '=' from b on */
        const char *c = colon_or_eq(b, e);
        if (c == e || *c != '=' || c - q < 10 || memcmp(c - 10, ", ioengine", 10) != 0)
            return NULL;
        q = c - 10;
    } else {
        legacy = true;
        a = q;
        if (!(q = legacy_bs(q, e)))
            return NULL;
        out->cap[2] = span(s, a, q);
        if (!(q = LIT(q, e, "-")) || !(q = legacy_bs(q, e)))
            return NULL;
        while ((b = LIT(q, e, "/"))) {
            if (!(b = legacy_bs(b, e)) || !(b = LIT(b, e, "-")) || !(b = legacy_bs(b, e)))
                return NULL;
            q = b;
        }
    }
    /* no ", ioengine=" before q: the name and rw have no spaces, the legacy sizes no
     * commas, and the 3.x text no '=' before it; so desc..q is what normal.c's
     * bsdesc_def finds between the first " bs=" and the first ", ioengine=" */
    out->cap[5] = span(s, desc, q);
    if (!(q = LIT(q, e, ", ioengine=")) || !(a = q, q = opt_token(q, e)))
        return NULL;
    out->cap[3] = span(s, a, q);
    if (!(q = LIT(q, e, ", iodepth=")) || !(a = q, q = digits(q, e)) || !at_end(q, e))
        return NULL;
    out->cap[4] = span(s, a, q);
    return fp->rule[legacy ? FR_JOBDEF_LEGACY : FR_JOBDEF];
}

/* Is the disk entry d's key k[0, kn)? */
static inline bool disk_key_is(const fsc_fastdkv *d, const char *k, size_t kn)
{
    return d->klen == kn && same_bytes(d->kv->key, k, kn);
}

/* The index of the disk rule's last entry of key k[0, kn) (the grammar's), or
 * n_disk_kv. fio prints the keys in the rule's order: they are looked for from
 * `from` (the entry after the line's key before) on, then before it. */
static size_t disk_entry(const fsc_fastpath *fp, const char *k, size_t kn, size_t from)
{
    for (size_t i = from; i < fp->n_disk_kv; i++)
        if (disk_key_is(&fp->disk_kv[i], k, kn))
            return fp->disk_kv[i].last;
    for (size_t i = from; i-- > 0;) /* none from `from` on: the last one before it */
        if (disk_key_is(&fp->disk_kv[i], k, kn))
            return i;
    return fp->n_disk_kv;
}

/* Is disk entry i's key with its '=' at q? One compare of a word (and of the ninth byte
 * for an eight-letter key) where nine bytes are left; false where it cannot tell. */
static inline bool disk_key_at(const fsc_fastpath *fp, size_t i, const char *q, const char *e)
{
    uint64_t mask = fp->disk_kmask[i];
    return e - q > 8 && mask && (fsc_load_le64(q) & mask) == fp->disk_kword[i] &&
           (fp->disk_kv[i].klen < 8 || q[8] == '=');
}

/* "  vda: ios=100475/43063, merge=0/0, ticks=22611/10126, in_queue=32764, util=100.00%" */
static const fsc_rule *lex_disk(const fsc_fastpath *fp, const char *q, const char *e, fsc_fastline *out)
{
    q += 2; /* ": " */
    out->n = 0;
    size_t next = 0;
    uint32_t seen = 0; /* a key twice ("ticks=0/0, ticks=3/4", two lines joined?) is the grammar's */
    for (;;) {
        if (out->n == FSC_FAST_MAX_ITEMS)
            return NULL;
        /* the key fio prints next, or the one after it (fio 3.x leaves "sectors" out):
         * disk_entry finds the first entry from next on of the key the word holds */
        size_t i;
        if (next < fp->n_disk_kv && disk_key_at(fp, next, q, e)) {
            i = fp->disk_kv[next].last;
            q += fp->disk_kv[next].klen;
        } else if (next + 1 < fp->n_disk_kv && disk_key_at(fp, next + 1, q, e)) {
            i = fp->disk_kv[next + 1].last;
            q += fp->disk_kv[next + 1].klen;
        } else {
            const char *k = q;
            while (q < e && ((*q >= 'a' && *q <= 'z') || *q == '_'))
                q++;
            i = disk_entry(fp, k, (size_t)(q - k), next);
        }
        const fsc_fastdkv *d = i < fp->n_disk_kv ? &fp->disk_kv[i] : NULL;
        if (!d || !d->field || q >= e || *q != '=' || (seen >> i & 1))
            return NULL;
        seen |= 1u << i;
        next = i + 1;
        out->dkv[out->n] = d;
        q++;
        switch (d->kv->kind) {
        case FSC_K_PAIR: /* "100475/43063" */
            if (!(q = uint_dec(q, e, &out->da[out->n])) || !(q = LIT(q, e, "/")) ||
                !(q = uint_dec(q, e, &out->db[out->n])))
                return NULL;
            break;
        case FSC_K_PCT: /* "100.00%" */
            if (!(q = dec(q, e, &out->da[out->n])))
                return NULL;
            if (q < e && *q == '%')
                q++;
            break;
        case FSC_K_INT:
        case FSC_K_PLAIN:
            if (!(q = dec(q, e, &out->da[out->n])))
                return NULL;
            break;
        default:
            return NULL;
        }
        out->n++;
        char last = q[-1];
        item_sep sep = next_item(&q, e);
        /* a trailing comma leaves no key to read: for the grammar; so does a line
         * that ends before its util's '%' (cut short inside a text: stops_short) */
        if (sep != ITEM_MORE)
            return sep == ITEM_LAST && last == '%' ? fp->rule[FR_DISK] : NULL;
    }
}

static __attribute__((noinline)) const fsc_rule *lex_named(const fsc_fastpath *fp, const char *s, const char *p,
                                                           const char *e, fsc_fastline *out, bool leads_ruled_out)
{
    const char *q = p;
    while (q < e && fsc_name_char(*q))
        q++;
    if (q == p || q >= e || *q != ':')
        return NULL;
    size_t n = (size_t)(e - s);
    const fsc_rule *r;
    memset(out->cap, 0, sizeof out->cap);
    out->cap[0] = span(s, p, q);
    if (LIT(q, e, ": (groupid=")) {
        r = lex_job(fp, q, e, out);
    } else if (LIT(q, e, ": ios=")) {
        /* a fully lexed disk line holds no ": (g=", ": (groupid=", "READ:" ...: none
         * of the generic rules before "disk" can match it */
        r = lex_disk(fp, q, e, out);
    } else if (LIT(q, e, ": (g=")) {
        r = lex_jobdef(fp, s, q, e, out);
    } else if (LIT(q, e, ": Laying out IO file")) {
        /* "(1 file / 32MiB)" after it: without ':' and '=' the rules before layout
         * (job definitions, numbered group lines) cannot match */
        if (colon_or_eq(q + 20, e) != e)
            return NULL;
        out->plain = true; /* noise */
        r = fp->rule[FR_LAYOUT];
    } else {
        return NULL;
    }
    /* (a name is followed by its ':': two bytes at p; no '<' of a client's host) */
    if (!r || (!leads_ruled_out && lead_may_begin(fp, p) && fsc_grammar_lead_match(fp->g, s, n)))
        return NULL;
    return r;
}

/* "fio-3.33", "fio-2.1.10", "fio-3.41-49-gde3d" (banner, the only rule of lead fio-) */
static __attribute__((noinline)) const fsc_rule *lex_banner(const fsc_fastpath *fp, const char *s, const char *q,
                                                            const char *e, fsc_fastline *out)
{
    const char *a = q;
    if (!(q = digits(q, e)) || !(q = LIT(q, e, ".")) || !(q = digits(q, e)))
        return NULL;
    if (q < e && *q == '.' && q + 1 < e && is_digit(q[1]))
        q = digits(q + 1, e);
    if (q < e && *q == '-') {
        const char *b = q + 1;
        while (b < e && (fsc_name_char(*b)))
            b++;
        if (b == q + 1)
            return NULL;
        q = b;
    }
    if (!at_end(q, e))
        return NULL;
    out->cap[0] = span(s, a, q);
    return fp->rule[FR_BANNER];
}

/* "Starting 4 processes" (starting, the only rule of lead Starting): q after "Starting " */
static __attribute__((noinline)) const fsc_rule *lex_starting(const fsc_fastpath *fp, const char *q, const char *e,
                                                              fsc_fastline *out)
{
    if (!(q = uint_dec(q, e, &out->num[0])) || !(q = LIT(q, e, " ")))
        return NULL;
    const char *w = q;
    while (q < e && *q >= 'a' && *q <= 'z')
        q++;
    size_t wn = (size_t)(q - w);
    if (!at_end(q, e) || !((wn == 7 && !memcmp(w, "process", 7)) || (wn == 9 && !memcmp(w, "processes", 9)) ||
                           (wn == 6 && !memcmp(w, "thread", 6)) || (wn == 7 && !memcmp(w, "threads", 7))))
        return NULL;
    return fp->rule[FR_STARTING];
}

/* The first byte of line s that is not a space: fio indents its lines by no more
 * than seven, found with one load where eight bytes are there. */
static inline const char *skip_indent(const char *s, const char *e)
{
    if (e - s >= 8) {
        uint64_t x = fsc_load_le64(s) ^ 0x2020202020202020ULL; /* zero bytes: the spaces */
        if (x)
            return s + (__builtin_ctzll(x) >> 3);
    }
    return skip_sp(s, e);
}

/* The dispatch's cases by a line's first byte: one table load and one jump for
 * every line (GCC's switch on the byte tested ranges and bits first, up to a dozen
 * instructions for the percentile rows) */
enum { LEAD_NONE, LEAD_PIPE, LEAD_C, LEAD_S, LEAD_L, LEAD_IO, LEAD_I, LEAD_B, LEAD_DIR, LEAD_GROUP, LEAD_DISK,
       LEAD_F, LEAD_STARTING, LEAD_DOTS };
static const unsigned char lead_kinds[256] = {
    ['|'] = LEAD_PIPE, ['c'] = LEAD_C,   ['s'] = LEAD_S,     ['l'] = LEAD_L,     ['I'] = LEAD_IO,
    ['i'] = LEAD_I,    ['b'] = LEAD_B,   ['r'] = LEAD_DIR,   ['w'] = LEAD_DIR,   ['t'] = LEAD_DIR,
    ['m'] = LEAD_DIR,  ['R'] = LEAD_GROUP, ['W'] = LEAD_GROUP, ['T'] = LEAD_GROUP, ['M'] = LEAD_GROUP,
    ['D'] = LEAD_DISK, ['f'] = LEAD_F,   ['S'] = LEAD_STARTING, ['.'] = LEAD_DOTS,
};

/* The dispatch on the line's lead. It keeps nothing in callee-saved registers: every
 * lexer is reached by a tail call (those that would be inlined with calls of their own
 * are kept out of line), so a line costs no saves and restores here. */
const fsc_rule *fsc_fast_lex(const fsc_fastpath *fp, const char *s, size_t n, fsc_fastline *out)
{
    const char *e = s + n, *p = skip_indent(s, e), *q;
    out->direct = false;
    out->plain = false;
    out->ends_comma = false;
    if (p == e || n > 1000)
        return NULL;
    const fsc_rule *r;
    switch (lead_kinds[(unsigned char)*p] & 15) { /* (the mask: GCC loads the kind once) */
    case LEAD_PIPE:
        return lex_pctl_line(fp, s, p, e, out);
    case LEAD_C:
        if ((q = LIT(p, e, "cpu")) && word_end(q, e))
            return lex_kv_line(&fp->kv_cpu, fp->rule[FR_CPU], q, e, out);
        if ((q = LIT(p, e, "complete")) && word_end(q, e)) {
            out->which = 2;
            return lex_depths(fp, s, q, e, out);
        }
        if ((q = LIT(p, e, "clat")))
            return latency_word(fp, s, q, e, FSC_LAT_CLAT, false, out);
        break;
    case LEAD_S:
        if ((q = LIT(p, e, "submit")) && word_end(q, e)) {
            out->which = 1;
            return lex_depths(fp, s, q, e, out);
        }
        if ((q = LIT(p, e, "slat")))
            return latency_word(fp, s, q, e, FSC_LAT_SLAT, false, out);
        if ((q = LIT(p, e, "sync"))) /* fio's fsync latencies: lat with sync set */
            return latency_word(fp, s, q, e, FSC_LAT_LAT, true, out);
        break;
    case LEAD_L:
        if ((q = LIT(p, e, "latency")) && word_end(q, e))
            return lex_latency(fp, q, e, out);
        if ((q = LIT(p, e, "lat")))
            return latency_word(fp, s, q, e, FSC_LAT_LAT, false, out);
        break;
    case LEAD_IO:
        if ((q = LIT(p, e, "IO depths")) && word_end(q, e)) {
            out->which = 0;
            return lex_depths(fp, s, q, e, out);
        }
        break;
    case LEAD_I:
        if ((q = LIT(p, e, "iops")) && word_end(q, e))
            return lex_iops(fp, q, e, out);
        if ((q = LIT(p, e, "issued")) && word_end(q, e))
            return lex_issued(fp, q, e, out);
        break;
    case LEAD_B:
        if ((q = LIT(p, e, "bw")) && word_end(q, e))
            return lex_bw(fp, s, q, e, out);
        break;
    case LEAD_DIR: {
        /* "  write: IOPS=..." (dir) and "  read : io=..." (dir-legacy); the lead rules
         * of "read" etc. are [dir-legacy, dir] (trim adds blockinfo after them) */
        /* the one direction of that first letter, compared as a literal (no memcmp call) */
        uint8_t i = *p == 'r' ? 0 : *p == 'w' ? 1 : *p == 't' ? 2 : 3;
        q = i == 0 ? LIT(p, e, "read") : i == 1 ? LIT(p, e, "write") : i == 2 ? LIT(p, e, "trim") : LIT(p, e, "mixed");
        if (q && word_end(q, e)) {
            q = skip_sp(q, e);
            if (q >= e || *q != ':')
                return NULL;
            q = skip_sp(q + 1, e);
            out->which = i;
            if (LIT(q, e, "IOPS="))
                return lex_dir(fp, s, q, e, out);
            if (LIT(q, e, "io="))
                return lex_dir_legacy(fp, s, q, e, out);
            /* "mixed: (groupid=0, ...": a job named after a direction */
            return fp->dir_names ? lex_named(fp, s, p, e, out, true) : NULL;
        }
        break;
    }
    case LEAD_GROUP: {
        if ((q = LIT(p, e, "Run status group "))) { /* group-header, the only rule of "Run" */
            if (!(q = uint_dec(q, e, &out->num[0])) || !(q = LIT(q, e, " (all jobs):")) || !at_end(q, e))
                return NULL;
            return fp->rule[FR_GROUP_HEADER];
        }
        uint8_t i = *p == 'R' ? 0 : *p == 'W' ? 1 : *p == 'T' ? 2 : 3;
        q = i == 0 ? LIT(p, e, "READ:") : i == 1 ? LIT(p, e, "WRITE:") : i == 2 ? LIT(p, e, "TRIM:") : LIT(p, e, "MIXED:");
        if (q) {
            q = skip_sp(q, e);
            out->which = i;
            if (LIT(q, e, "bw="))
                return lex_group_dir(fp, s, q, e, out);
            if (LIT(q, e, "io="))
                return lex_group_dir_legacy(fp, s, q, e, out);
            return NULL;
        }
        break;
    }
    case LEAD_DISK:
        /* disk-header (lead Disk; Description's lead comes first and needs "Description") */
        if ((q = LIT(p, e, "Disk stats (read/write):")) && at_end(q, e)) {
            out->plain = true;
            return fp->rule[FR_DISK_HEADER];
        }
        break;
    case LEAD_F:
        if ((q = LIT(p, e, "fio-")) && q < e && is_digit(*q))
            return lex_banner(fp, s, q, e, out);
        /* sync-section: lead fsync/... comes after fio-, fio, fioscope-engine- */
        if ((q = LIT(p, e, "fsync/fdatasync/sync_file_range"))) {
            if ((r = (const fsc_rule *)LIT(q, e, "/syncfs")))
                q += 7;
            if (!(q = LIT(q, e, ":")) || !at_end(q, e))
                return NULL;
            out->plain = true;
            return fp->rule[FR_SYNC_SECTION];
        }
        break;
    case LEAD_STARTING:
        /* starting, the only rule of lead Starting */
        if ((q = LIT(p, e, "Starting ")))
            return lex_starting(fp, q, e, out);
        break;
    case LEAD_DOTS:
        if ((q = LIT(p, e, "...")) && at_end(q, e)) { /* clone-marker, the only rule of "..." */
            out->plain = true;
            return fp->rule[FR_CLONE];
        }
        break;
    default:
        break;
    }
    return lex_named(fp, s, p, e, out, false);
}
