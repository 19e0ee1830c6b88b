/* SPDX-License-Identifier: MIT */
/* The escaping layer: each output kind with hostile strings (terminal escapes, C1 CSI,
 * bidi overrides, invalid bytes, formulas, Markdown links, HTML). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fioscope/escape.h"

typedef void (*esc_fn)(fsc_buf *, const char *);

static void check(esc_fn f, const char *in, const char *want)
{
    fsc_buf b = {0};
    f(&b, in);
    assert_false(b.oom);
    assert_string_equal(b.data ? b.data : "", want);
    fsc_buf_free(&b);
}

static void test_utf8_next(void **state)
{
    uint32_t cp;
    (void)state;
    assert_int_equal(fsc_utf8_next("a", 1, &cp), 1);
    assert_int_equal(cp, 'a');
    assert_int_equal(fsc_utf8_next("\xc2\x9b", 2, &cp), 2);
    assert_int_equal(cp, 0x9B);
    assert_int_equal(fsc_utf8_next("\xe2\x80\xae", 3, &cp), 3);
    assert_int_equal(cp, 0x202E);
    assert_int_equal(fsc_utf8_next("\xf0\x9f\x98\x80", 4, &cp), 4);
    assert_int_equal(cp, 0x1F600);
    assert_int_equal(fsc_utf8_next("\x9b[2J", 4, &cp), 1);
    assert_int_equal(cp, FSC_UTF8_INVALID);
    assert_int_equal(fsc_utf8_next("\xe2\x80", 2, &cp), 1); /* truncated */
    assert_int_equal(cp, FSC_UTF8_INVALID);
    assert_true(fsc_cp_unsafe(0x1B) && fsc_cp_unsafe(0x7F) && fsc_cp_unsafe(0x9B));
    assert_true(fsc_cp_unsafe(0x202E) && fsc_cp_unsafe(0x2066) && fsc_cp_unsafe(FSC_UTF8_INVALID));
    assert_false(fsc_cp_unsafe(0x200F) || fsc_cp_unsafe(0xE9) || fsc_cp_unsafe(0xA0));
    assert_true(fsc_xml_char_ok('\t') && fsc_xml_char_ok(0xFFFD) && fsc_xml_char_ok(0x10000));
    assert_false(fsc_xml_char_ok(0x1B) || fsc_xml_char_ok(0xFFFE) || fsc_xml_char_ok(0xFFFF) ||
                 fsc_xml_char_ok(0xD800));
}

static void test_term(void **state)
{
    (void)state;
    check(fsc_esc_term, "job\x1b]0;pwned\x07x", "job ]0;pwned x");
    check(fsc_esc_term, "a\xc2\x9b" "2Jb", "a 2Jb");            /* C1 CSI as UTF-8 */
    check(fsc_esc_term, "a\x9b" "2Jb", "a 2Jb");                 /* raw 8-bit CSI */
    check(fsc_esc_term, "x\xe2\x80\xaegnp.exe", "x gnp.exe");   /* RLO */
    check(fsc_esc_term, "\xe2\x81\xa6y\xe2\x81\xa9", " y ");     /* LRI .. PDI */
    check(fsc_esc_term, "RAID 0 \xe2\x80\xba 4k \xe9\x9a\x8f", "RAID 0 \xe2\x80\xba 4k \xe9\x9a\x8f");
    check(fsc_esc_term, "\xd7\xa9\xe2\x80\x8f", "\xd7\xa9\xe2\x80\x8f"); /* RLM kept */
    check(fsc_esc_term, "a\tb\nc\rd\x7f", "a b c d ");
    check(fsc_esc_term, NULL, "");
}

static void test_diag(void **state)
{
    (void)state;
    check(fsc_esc_diag, "evil\x1b]2;title\x07.log", "evil\\x1B]2;title\\x07.log");
    check(fsc_esc_diag, "a\n\rb", "a\\x0A\\x0Db");
    check(fsc_esc_diag, "\xc2\x9b" "2J\xe2\x80\xae", "\\u009B2J\\u202E");
    check(fsc_esc_diag, "bad\xff.txt", "bad\\xFF.txt");
    check(fsc_esc_diag, "caf\xc3\xa9 C:\\x", "caf\xc3\xa9 C:\\x");
}

static void test_csv(void **state)
{
    (void)state;
    check(fsc_esc_csv, "randread", "randread");
    check(fsc_esc_csv, "=1+2", "\"'=1+2\"");
    check(fsc_esc_csv, "@SUM(A1)", "\"'@SUM(A1)\"");
    check(fsc_esc_csv, "x;=1+2", "\"x;=1+2\"");     /* L3: ';' locales */
    check(fsc_esc_csv, "x,=1+2", "\"x,=1+2\"");
    check(fsc_esc_csv, "x\t=1+2", "\"x\t=1+2\"");
    check(fsc_esc_csv, "q\"u", "\"q\"\"u\"");
    check(fsc_esc_csv, "a\nb", "\"a\nb\"");
    check(fsc_esc_csv, " lead", "\" lead\"");
    check(fsc_esc_csv, "esc\x1b[31mred", "esc [31mred");
    check(fsc_esc_csv, "c1\xc2\x9b" "x\xe2\x80\xae", "c1 x ");
}

static void test_tsv(void **state)
{
    (void)state;
    check(fsc_esc_tsv, "=1+2", "'=1+2");
    check(fsc_esc_tsv, "x;=1+2", "x;'=1+2");
    check(fsc_esc_tsv, "x,+1;-2,@3", "x,'+1;'-2,'@3");
    check(fsc_esc_tsv, "a,b;c", "a,b;c");
    check(fsc_esc_tsv, "a\tb\nc", "a b c");
    check(fsc_esc_tsv, "\tx", "' x");
    check(fsc_esc_tsv, "e\x1b[2J", "e [2J");
}

static void test_md(void **state)
{
    (void)state;
    check(fsc_esc_md, "4k_randread", "4k_randread");
    check(fsc_esc_md, "_em_", "\\_em\\_");
    check(fsc_esc_md, "a|b`c`*d*\\", "a\\|b\\`c\\`\\*d\\*\\\\");
    check(fsc_esc_md, "mix [read]", "mix [read]");
    check(fsc_esc_md, "![x](https://evil/p.png)", "![x\\](https://evil/p.png)");
    check(fsc_esc_md, "[x](javascript:alert(1))", "\\[x\\](javascript:alert(1))");
    check(fsc_esc_md, "[r]: https://evil", "\\[r\\]: https://evil");
    check(fsc_esc_md, "[a][b]", "\\[a\\][b]");
    check(fsc_esc_md, "<script>&", "&lt;script&gt;&amp;");
    check(fsc_esc_md, "a\nb\x1b[2J\xe2\x80\xae", "a b [2J ");
}

static void test_html(void **state)
{
    (void)state;
    check(fsc_esc_html, "</script><img src=x onerror='a'>&\"",
          "&lt;/script&gt;&lt;img src=x onerror=&#39;a&#39;&gt;&amp;&quot;");
    check(fsc_esc_html, "a\tb\nc", "a\tb\nc");
    check(fsc_esc_html, "a\x1b\x01\xe2\x80\xae", "a   ");
}

/* fsc_json_plain (16 bytes a step where it can) against a byte-by-byte reference:
 * every length up to 40, each byte to escape at every position. */
static void test_json_plain(void **state)
{
    (void)state;
    static const char special[] = {'"', '\\', '<', '>', '&', 0x00, 0x1f, 0x7f, (char)0x80, (char)0xff, ' ', '~'};
    char s[41];
    for (size_t n = 0; n <= 40; n++) {
        for (size_t k = 0; k < sizeof special; k++) {
            for (size_t at = 0; at <= n; at++) { /* at == n: none to escape */
                for (size_t i = 0; i < n; i++)
                    s[i] = (char)('a' + i % 26);
                if (at < n)
                    s[at] = special[k];
                for (int html = 0; html < 2; html++) {
                    size_t want = 0;
                    while (want < n) {
                        unsigned char c = (unsigned char)s[want];
                        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\' ||
                            (html && (c == '<' || c == '>' || c == '&')))
                            break;
                        want++;
                    }
                    assert_int_equal(fsc_json_plain(s, n, html), want);
                }
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_utf8_next), cmocka_unit_test(test_term), cmocka_unit_test(test_diag),
        cmocka_unit_test(test_csv),       cmocka_unit_test(test_tsv),  cmocka_unit_test(test_md),
        cmocka_unit_test(test_html),      cmocka_unit_test(test_json_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
