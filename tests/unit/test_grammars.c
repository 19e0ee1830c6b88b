/* SPDX-License-Identifier: MIT */
/* Every grammar loads and its samples match their rules; broken grammars are refused
 * with a message naming the file, the rule and the column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fioscope/embedded.h"
#include "grammar.h"

static void test_builtin_grammars_load(void **state)
{
    (void)state;
    fsc_buf err = {0};
    unsetenv("FIOSCOPE_GRAMMAR_DIR");
    fsc_grammar_set *g = fsc_grammars_load(&err);
    if (!g)
        fail_msg("%s", err.data);
    size_t n;
    fsc_grammar_rules(g, &n);
    assert_true(n >= 40);
    /* a sample from each era is matched by the rule its grammar says */
    pcre2_match_data *md = fsc_grammar_match_data(g);
    static const struct {
        const char *line, *rule;
    } cases[] = {
        {"  read : io=523520KB, bw=2600.4KB/s, iops=40, runt=201329msec", "dir-legacy"},
        {"  read: IOPS=10.9k, BW=42.7MiB/s (44.8MB/s)(42.8MiB/1001msec)", "dir"},
        {"    bw (KB  /s): min=   82, max=12416, per=25.85%, avg=2688.32, stdev=1545.40", "bw-stats"},
        {"     issued rwts: total=15037,6398,0,0 short=0,0,0,0 dropped=0,0,0,0", "issued"},
        {"We measured 40 IOPS on Tuesday.", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const fsc_rule *r = fsc_grammar_match(g, cases[i].line, strlen(cases[i].line), md);
        if (!cases[i].rule)
            assert_null(r);
        else {
            assert_non_null(r);
            assert_string_equal(r->id, cases[i].rule);
        }
    }
    pcre2_match_data_free(md);
    fsc_grammars_free(g);
    fsc_buf_free(&err);
}

static char *write_grammar_dir(const char *json)
{
    char *dir = strdup("/tmp/fsc_grammar_XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[512];
    snprintf(path, sizeof path, "%s/bad.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(json, f);
    fclose(f);
    return dir;
}

static void remove_grammar_dir(char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad.json", dir);
    unlink(path);
    rmdir(dir);
    free(dir);
}

/* The grammars of folder dir (FIOSCOPE_GRAMMAR_DIR), which must load. */
static fsc_grammar_set *load_from(const char *dir)
{
    setenv("FIOSCOPE_GRAMMAR_DIR", dir, 1);
    fsc_buf err = {0};
    fsc_grammar_set *g = fsc_grammars_load(&err);
    unsetenv("FIOSCOPE_GRAMMAR_DIR");
    if (!g)
        fail_msg("%s", err.data);
    fsc_buf_free(&err);
    return g;
}

/* The compiled-in grammars' samples match their rules: loaded from a folder, where
 * every load checks them (the program does not, at each start). */
static void test_builtin_samples_match(void **state)
{
    (void)state;
    char *dir = strdup("/tmp/fsc_grammar_XXXXXX");
    assert_non_null(mkdtemp(dir));
    char path[512];
    size_t n_files = 0;
    for (const struct fsc_embedded *e = fsc_grammar_files; e->name; e++) {
        snprintf(path, sizeof path, "%s/%s", dir, e->name);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        assert_int_equal(fwrite(e->data, 1, e->size, f), e->size);
        fclose(f);
        n_files++;
    }
    assert_true(n_files >= 3);
    fsc_grammar_set *g = load_from(dir);
    assert_false(fsc_grammar_builtin(g));
    fsc_grammars_free(g);
    for (const struct fsc_embedded *e = fsc_grammar_files; e->name; e++) {
        snprintf(path, sizeof path, "%s/%s", dir, e->name);
        unlink(path);
    }
    rmdir(dir);
    free(dir);
}

static void expect_refused(const char *json, const char *needle)
{
    char *dir = write_grammar_dir(json);
    setenv("FIOSCOPE_GRAMMAR_DIR", dir, 1);
    fsc_buf err = {0};
    fsc_grammar_set *g = fsc_grammars_load(&err);
    unsetenv("FIOSCOPE_GRAMMAR_DIR");
    assert_null(g);
    assert_non_null(err.data);
    if (!strstr(err.data, needle))
        fail_msg("message '%s' lacks '%s'", err.data, needle);
    fsc_buf_free(&err);
    remove_grammar_dir(dir);
}

static void test_broken_grammars_refused(void **state)
{
    (void)state;
    expect_refused("{\"rules\": {\"r\": {\"pattern\": \"^(unclosed\", \"action\": \"noise\", \"lead\": [\"x\"]}}}",
                   "rules/r/pattern: invalid regex at column");
    expect_refused("{\"rules\": {\"r\": {\"pattern\": \"^x\", \"action\": \"explode\", \"lead\": [\"x\"]}}}",
                   "unknown action \"explode\"");
    expect_refused("{\"rules\": {\"r\": {\"pattern\": \"^x (?<a>y)\", \"action\": \"noise\", \"lead\": [\"x\"]}},"
                   " \"samples\": [{\"line\": \"x z\", \"rule\": \"r\"}]}",
                   "/samples/0: \"x z\" matched no rule, expected rule \"r\"");
    expect_refused("{\"rules\": {\"r\": {\"pattern\": \"^x (?<a>y)\", \"action\": \"noise\", \"lead\": [\"x\"]}},"
                   " \"samples\": [{\"line\": \"x y\", \"rule\": \"r\", \"expect\": {\"a\": \"z\"}}]}",
                   "capture \"a\" of \"x y\" is not \"z\"");
    expect_refused("{\"rules\": {\"r\": {\"pattern\": \"^x\", \"action\": \"noise\"}}}", "needs a \"lead\" list or a \"needle\"");
    expect_refused("not json", "not valid JSON");
}

static void test_override_dir_with_good_grammar(void **state)
{
    (void)state;
    char *dir = write_grammar_dir(
        "{\"rules\": {\"only\": {\"pattern\": \"^\\\\s*Starting (?<count>\\\\d+) process\", \"action\": \"starting\","
        " \"lead\": [\"Starting\"], \"fields\": {\"count\": \"int\"}}},"
        " \"samples\": [{\"line\": \"Starting 3 processes\", \"rule\": \"only\", \"expect\": {\"count\": \"3\"}}]}");
    fsc_grammar_set *g = load_from(dir);
    size_t n;
    fsc_grammar_rules(g, &n);
    assert_int_equal(n, 1);
    fsc_grammars_free(g);
    remove_grammar_dir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_grammars_load),
        cmocka_unit_test(test_builtin_samples_match),
        cmocka_unit_test(test_broken_grammars_refused),
        cmocka_unit_test(test_override_dir_with_good_grammar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
