/* SPDX-License-Identifier: MIT */
/* Grammar rules for fio's normal text: loaded from the JSON files in grammars/, matched line by line. */
#ifndef FIOSCOPE_GRAMMAR_H
#define FIOSCOPE_GRAMMAR_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdatomic.h>

#include "parse_int.h"

/* What the assembler does with a matched line (grammar "action"). */
typedef enum fsc_action {
    FSC_ACT_NOISE,
    FSC_ACT_BANNER,
    FSC_ACT_STARTING,
    FSC_ACT_JOBDEF,
    FSC_ACT_JOB,
    FSC_ACT_DESCRIPTION,
    FSC_ACT_DIR,
    FSC_ACT_LAT,
    FSC_ACT_PCTL_TITLE,
    FSC_ACT_PCTL_IGNORE,
    FSC_ACT_PCTL_ROW,
    FSC_ACT_BW_STATS,
    FSC_ACT_IOPS_STATS,
    FSC_ACT_BUCKETS,
    FSC_ACT_SYNC_SECTION,
    FSC_ACT_CPU,
    FSC_ACT_DEPTHS,
    FSC_ACT_JOB_KV,
    FSC_ACT_ISSUED,
    FSC_ACT_GROUP,
    FSC_ACT_GROUP_CLIENTS,
    FSC_ACT_GROUP_DIR,
    FSC_ACT_DISK_HEADER,
    FSC_ACT_DISK,
    FSC_ACT_FIO_MESSAGE,
    FSC_ACT_COMMAND, /* a fio command line: ends the run before it */
    FSC_ACT_STEADYSTATE, /* "steadystate  : attained=yes, ..." */
    FSC_ACT_PRIO_LAT,    /* "high prio_clat (usec): min=...", "clat prio 1/0 (usec): min=..." */
    FSC_ACT_PRIO_PCTL_TITLE, /* "high prio (29.68%) clat percentiles (usec):", "clat prio 1/0 (29.68% of IOs) ..." */
    FSC_ACT_IDLE,            /* --idle-prof: "CPU idleness:", "system: 96.20%", "percpu: ...", "unit work: ..." */
    FSC_ACT_COUNT
} fsc_action;

/* How a captured text becomes a number. */
typedef enum fsc_kind {
    FSC_K_STRING,
    FSC_K_INT,      /* plain integer count */
    FSC_K_COUNT,    /* with k/M/G suffix (x1000) */
    FSC_K_SIZE,     /* bytes with unit */
    FSC_K_RATE,     /* bytes/s with unit */
    FSC_K_DURATION, /* in the unit of the line's "unit" capture → ns */
    FSC_K_PCT,
    FSC_K_PLAIN,  /* decimal number */
    FSC_K_BWSTAT, /* bw sample stat in the line's unit → KiB/s */
    FSC_K_PAIR,   /* "a/b" into two fields */
    FSC_K_TIME_NS, /* a time in ns: bare ("250", fio <= 3.41) or with a unit ("2.50ms", 3.42+) */
    FSC_K_TIME_US  /* the same, in us ("window=1.00s" → 1000000) */
} fsc_kind;

typedef enum fsc_era_hint { FSC_ERA_ANY, FSC_ERA_HINT_LEGACY, FSC_ERA_HINT_MODERN } fsc_era_hint;

typedef struct fsc_capfield {
    char *name; /* capture name = model field name */
    fsc_kind kind;
    int num; /* its capture number, resolved at load */
} fsc_capfield;

typedef struct fsc_kvfield {
    char *key;            /* text key in the line ("avg") */
    char *field, *field2; /* model field(s) ("mean"; pairs: "read_ios", "write_ios") */
    fsc_kind kind;
} fsc_kvfield;

typedef struct fsc_rule {
    char *id;
    pcre2_code *re;
    fsc_action action;
    bool anchor;
    fsc_era_hint era;
    char **leads;
    size_t n_leads;
    char *needle;
    size_t needle_len; /* strlen(needle), asked for every line */
    fsc_capfield *fields;
    size_t n_fields;
    fsc_kvfield *kv;
    size_t n_kv;
    char **fuzzy; /* canonical line starts a damaged line may be repaired to */
    size_t n_fuzzy;
    int cap_kv, cap_unit, cap_list; /* numbers of these captures, negative if none (set
                                     * when re is: read them after a match) */
    /* "whole": the capture that a line as fio printed it always sets, the last value
     * of a pattern whose tail is optional for lines cut short (FSC_LINE_CUT): a
     * match without it counts only for those (fsc_grammar_match_cut). NULL: none. */
    char *whole;
    int cap_whole; /* its number (set when re is), negative if none */
    /* a noise rule whose leads begin rules that read values before it ("steadystate
     * : <the rest>"): a line it takes may be one of theirs with its tail wrapped onto
     * the next line */
    bool catch_all;
    /* a line of a job's or a summary's values, whose end fio prints in a way the text
     * shows (a '%', ']' or ')', "msec", the key it prints last): one that ends in no
     * such way stops inside a value (normal.c stops_short) */
    bool values;
    char *pattern;      /* private (grammar.c): the regex source, compiled on first use */
    atomic_bool ready;  /* private (grammar.c): re compiled (and JIT-compiled) */
} fsc_rule;

/* Match one line: the first rule whose lead (first word) or needle fits and whose
 * pattern matches. md must come from fsc_grammar_match_data(). NULL if none. */
const fsc_rule *fsc_grammar_match(const fsc_grammar_set *g, const char *s, size_t n,
                                  pcre2_match_data *md);
/* fsc_grammar_match for a line cut short (cutline.c): a rule's match counts without
 * its "whole" capture (the tail the cut took). */
const fsc_rule *fsc_grammar_match_cut(const fsc_grammar_set *g, const char *s, size_t n,
                                      pcre2_match_data *md);
/* Could some rule match this line? Its first word is a rule's lead, or a lead-less
 * rule's needle is in it; no pattern is run (a cheap test for wrapped lines). */
bool fsc_grammar_could_match(const fsc_grammar_set *g, const char *s, size_t n);
/* Match data big enough for every rule; caller frees with pcre2_match_data_free. */
pcre2_match_data *fsc_grammar_match_data(const fsc_grammar_set *g);
/* A named capture of the last match; false when the group did not take part. */
bool fsc_rule_capture(const fsc_rule *r, pcre2_match_data *md, const char *subject,
                      const char *name, const char **s, size_t *len);
/* The same by capture number (fsc_capfield.num, fsc_rule.cap_*): no name lookup. */
bool fsc_rule_capture_num(pcre2_match_data *md, const char *subject, int num, const char **s,
                          size_t *len);
const fsc_kvfield *fsc_rule_kv(const fsc_rule *r, const char *key, size_t len);
/* A line no rule matched, repaired: its first words are replaced by a rule's
 * canonical start ("clat perntiles" → "clat percentiles") when they are a few
 * letters off and the repaired line then matches that rule. Returns the rule and
 * writes the repaired text to fixed (the captures refer to it), or NULL. */
const fsc_rule *fsc_grammar_match_fuzzy(const fsc_grammar_set *g, const char *s, size_t n,
                                        pcre2_match_data *md, fsc_buf *fixed);
/* Every rule with the given action (for fuzzy repair); n_out set. */
const fsc_rule *const *fsc_grammar_rules(const fsc_grammar_set *g, size_t *n_out);

/* For the fast path (fastline.c): the rule with this id, or NULL; */
const fsc_rule *fsc_grammar_rule(const fsc_grammar_set *g, const char *id);
/* were the grammars compiled in (not loaded from FIOSCOPE_GRAMMAR_DIR)?; */
bool fsc_grammar_builtin(const fsc_grammar_set *g);
/* would fsc_grammar_match try a lead rule on this line (does any lead begin it)?; */
bool fsc_grammar_lead_match(const fsc_grammar_set *g, const char *s, size_t n);
/* does rule r alone match (md then holds its captures, as after fsc_grammar_match)? */
bool fsc_rule_match(const fsc_rule *r, const char *s, size_t n, pcre2_match_data *md);

#endif
