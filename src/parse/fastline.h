/* SPDX-License-Identifier: MIT */
/*
 * The fast path for clean fio text: hand-written lexers for the line shapes that carry
 * most of the bytes of fio's normal output, and the pre-scan that tells whether a
 * document needs normalizing at all.
 *
 * The grammar (grammar.c and the files in grammars/) stays the reference. A line is taken here
 * only in fio's own canonical shape, and only when the grammar would match it with
 * the same rule and read the same values; every other line (damaged, old, rare,
 * prefixed, wrapped) goes to the grammar. tests/fastpath proves the two paths give
 * byte-identical output (FIOSCOPE_NO_FASTPATH=1 turns this module off).
 */
#ifndef FIOSCOPE_FASTLINE_H
#define FIOSCOPE_FASTLINE_H

#include "grammar.h"

#include "fioscope/units.h"
#include "fioscope/words.h"

#include <string.h>

/* The rules, kv tables and needles the fast path needs, resolved from the loaded
 * grammars. Immutable; shared by threads. */
typedef struct fsc_fastpath fsc_fastpath;

/* NULL when the fast path cannot vouch for these grammars (a FIOSCOPE_GRAMMAR_DIR
 * override, a rule missing or changed) or FIOSCOPE_NO_FASTPATH is set: then every
 * line goes to the grammar and every document is normalized. */
fsc_fastpath *fsc_fastpath_new(const fsc_grammar_set *g);
void fsc_fastpath_free(fsc_fastpath *fp); /* NULL is fine */

/* A decimal as fio printed it: mant / 10^scale, times the count prefix `suffix`
 * ('k', 'M', ... or 0). No sign: fio prints none in these lines. */
typedef struct fsc_fdec {
    uint64_t mant;
    uint8_t scale;
    char suffix;
} fsc_fdec;

/* A part of the line: s + off, len bytes. */
typedef struct fsc_fspan {
    uint16_t off, len;
} fsc_fspan;

enum { FSC_FAST_MAX_KV = 8, FSC_FAST_MAX_ITEMS = 16 };

/* A capture of a span rule (dir, group-dir): which slot of fsc_fastline.cap holds
 * it, and where it goes. */
typedef struct fsc_fastcap {
    uint8_t slot;
    fsc_kind kind;
    const fsc_field *field;
} fsc_fastcap;

/* One disk kv item: the grammar's kv entry and its model field(s). */
typedef struct fsc_fastdkv {
    const fsc_kvfield *kv;
    const fsc_field *field, *field2;
    size_t klen;  /* strlen(kv->key) */
    uint8_t last; /* the index of the rule's last entry of this key (the one that counts) */
} fsc_fastdkv;

/* One lexed line. `rule` is the grammar rule that matches it. When `direct` is set
 * the line was only classified: the caller matches that one rule's pattern (no other
 * rule can match before it) and applies it as the grammar path does. When `plain`
 * is set, apply() needs no captures of it (noise, section headers). Otherwise the
 * values below are read and no pattern is run at all. */
typedef struct fsc_fastline {
    const fsc_rule *rule;
    bool direct;
    bool plain;
    bool ends_comma;     /* the line ends with ',' (join_wrapped looks at the next line) */
    uint8_t which;       /* LAT / PCTL_ROW: latency kind; DEPTHS: 0 level, 1 submit, 2 complete */
    bool sync;           /* LAT: the fsync "sync" line */
    uint64_t unit_ns;    /* LAT, BUCKETS: ns per unit of the line */
    fsc_fspan unit;      /* BW_STATS: the unit text ("KiB", "MB") */
    uint8_t n;           /* kv values, list items or percentiles */
    uint64_t memo_gen;   /* normal.c: the kept reading (memo) this one is, 0: none */
    /* kv lines: kv[i] is the value of the rule's kv entry key[i] (in line order) */
    uint8_t key[FSC_FAST_MAX_KV];
    fsc_fdec kv[FSC_FAST_MAX_KV];
    const fsc_kvfield *const *kvdef;  /* the grammar's kv entry of key[i]: kvdef[key[i]] */
    const fsc_field *const *kvfield;  /* its model field: kvfield[key[i]] */
    /* percentile rows (pct, value) and bucket / depth lists (key, value) */
    fsc_fdec pct[FSC_FAST_MAX_ITEMS];
    fsc_fdec val[FSC_FAST_MAX_ITEMS];
    fsc_fspan item_key[FSC_FAST_MAX_ITEMS];
    /* issued: counts of total / short / dropped, by position (r, w, t, sync) */
    uint8_t n_issued[3]; /* 0: that part is absent */
    fsc_fdec issued[3][4];
    /* span rules: captures by slot (len 0: the group did not take part), and the
     * rule's fields in the grammar's order; job, group, starting: integers */
    fsc_fspan cap[8];
    fsc_num capnum[8];            /* the value of a capture by slot (not size, rate) */
    fsc_bytes_text capbytes[8];   /* a size or rate capture as read, before the era */
    /* the decimal a capture begins with, read by the lexer as it found the capture's
     * end (capdec_len: its bytes; 0: none read, caps_valid reads the capture) */
    fsc_fdec capdec[8];
    uint8_t capdec_len[8];
    const fsc_fastcap *caps;
    uint8_t n_caps;
    fsc_fdec num[4];
    /* disk: its kv items */
    const fsc_fastdkv *dkv[FSC_FAST_MAX_ITEMS];
    fsc_fdec da[FSC_FAST_MAX_ITEMS], db[FSC_FAST_MAX_ITEMS];
} fsc_fastline;

/* fsc_fast_line without out->rule set */
const fsc_rule *fsc_fast_lex(const fsc_fastpath *fp, const char *s, size_t n, fsc_fastline *out);

/* Lex line s[0, n). Returns the rule it matches (out filled) or NULL: the grammar
 * decides. Inline: a call of its own cost every line a call and a frame. */
static inline const fsc_rule *fsc_fast_line(const fsc_fastpath *fp, const char *s, size_t n, fsc_fastline *out)
{
    return out->rule = fsc_fast_lex(fp, s, n, out);
}

/* Value of a decimal times num/den, exactly as the grammar path converts it
 * (fsc_decimal_num), stored into *dst: its common cases inline (fsc_decimal_num_quick).
 * Always inlined: it converts every value read, and where the compiler called it out
 * of line the calls cost more than the code they saved. */
static inline __attribute__((always_inline)) void fsc_fdec_set(fsc_num *dst, fsc_fdec d, uint64_t num, uint64_t den)
{
    if (den == 1 && fsc_decimal_num_quick(d.mant, d.scale, num, dst))
        return;
    fsc_decimal x = {d.mant, d.scale, false};
    *dst = fsc_decimal_num(x, num, den);
}

/* fsc_fdec_set as a value, for callers that want its double. */
static inline fsc_num fsc_fdec_num(fsc_fdec d, uint64_t num, uint64_t den)
{
    fsc_num r;
    fsc_fdec_set(&r, d, num, den);
    return r;
}
/* The count prefix factor of d's suffix (1 without one; 0 if unknown): inline, as
 * most values have none (a call each for the durations of every latency line). */
static inline uint64_t fsc_fdec_mul(fsc_fdec d)
{
    return d.suffix ? fsc_count_prefix(d.suffix) : 1;
}

/* The first byte of [p, e) that is not a space: eight bytes a step (fio pads its
 * columns with spaces). */
static inline const char *fsc_skip_spaces(const char *p, const char *e)
{
    /* most calls skip no space or one (after a comma) */
    if (p == e || *p != ' ')
        return p;
    if (++p == e || *p != ' ')
        return p;
    while (e - p >= 8) {
        uint64_t x = fsc_load_le64(p) ^ 0x2020202020202020ULL; /* zero bytes where the spaces are */
        if (x)
            return p + (__builtin_ctzll(x) >> 3); /* the first one */
        p += 8;
    }
    while (p < e && *p == ' ')
        p++;
    return p;
}

/* [A-Za-z0-9_.+-]: a byte of a job's or disk's name, by table (a name is read a
 * byte at a time, by the pre-scan and the lexers) */
extern const unsigned char fsc_name_chars[256];
static inline bool fsc_name_char(char c)
{
    return fsc_name_chars[(unsigned char)c];
}

/* A byte of a name as it may stand in pasted text: fsc_name_char's, or one of a UTF-8
 * sequence ("日本語: (g=0)") */
static inline bool fsc_name_byte(char c)
{
    return fsc_name_char(c) || (unsigned char)c >= 0x80;
}

/* ---- the pre-scan ---- */

/* Does the document need normalizing? When every line is plain printable ASCII
 * (no tab, CR, markup or entity characters) and begins like a line of fio's own
 * output that normalization leaves as it is, the lines are taken straight from data
 * (out->store borrows data: call fsc_prescan_release before fsc_text_free) and true
 * is returned. *headings tells whether a line might be a heading (then the outline
 * must be built; else it is known to be empty); *json whether a line may start a
 * fio JSON document (no terse record is ever let through). False: normalize as
 * usual (out is left empty). FSC_E_NOMEM is reported through *st. checked: data is
 * a piece of a text found FSC_TEXT_NORMAL whole (fsc_doc.checked): only its bytes
 * and the lengths of its lines are looked at, unless those are not clean. */
bool fsc_prescan(const fsc_fastpath *fp, const char *data, size_t len, uint32_t first_line, bool checked,
                 fsc_text *out, bool *headings, bool *json, fsc_status *st);
/* Give the borrowed bytes back (the store was not allocated). */
void fsc_prescan_release(fsc_text *t);
/* fsc_prescan's verdict alone, with or without a fast path: true when the document is
 * clean and has no headings (see fsc_text_is_plain_fio). */
bool fsc_prescan_plain_fio(const char *data, size_t len);

#endif
