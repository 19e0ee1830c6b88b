/* SPDX-License-Identifier: MIT */
/* Replays every saved fuzz input (tests/fuzz/regress for fuzz_parse, and
 * tests/fuzz/regress/<target>/ for the others) and the samples through the fuzz
 * targets' paths, so a crash (or, for fuzz_fastpath, a difference between the fast
 * path and the grammar path, for fuzz_gunzip and fuzz_unzip between ISA-L and
 * libarchive, for fuzz_mail an attachment that is no archive, for fuzz_pieces a cut that
 * is no line start) found once stays fixed. Runs under ASan in make test. */
#define _GNU_SOURCE /* fuzz_jobfile.c uses memfd_create */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../fuzz/fuzz_parse.c"
#define FUZZ_ENTRY fuzz_json_one
#include "../fuzz/fuzz_json.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_terse_one
#include "../fuzz/fuzz_terse.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_jobfile_one
#include "../fuzz/fuzz_jobfile.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_fastpath_one
#include "../fuzz/fuzz_fastpath.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_log_one
#include "../fuzz/fuzz_log.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_gunzip_one
#include "../fuzz/fuzz_gunzip.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_unzip_one
#include "../fuzz/fuzz_unzip.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_mail_one
#include "../fuzz/fuzz_mail.c"
#undef FUZZ_ENTRY
#define FUZZ_ENTRY fuzz_pieces_one
#include "../fuzz/fuzz_pieces.c"
#undef FUZZ_ENTRY

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);

static size_t replay_dir(const char *dir, fuzz_fn fuzz)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    if (!d)
        return 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat sb;
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size > (64 << 20))
            continue;
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        uint8_t *buf = malloc((size_t)sb.st_size + 1);
        size_t got = buf ? fread(buf, 1, (size_t)sb.st_size, f) : 0;
        fclose(f);
        if (buf) {
            fuzz(buf, got);
            free(buf);
            n++;
        }
    }
    closedir(d);
    return n;
}

static void test_replay(void **state)
{
    (void)state;
    const char *src = getenv("FSC_SOURCE_DIR");
    assert_non_null(src);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/regress", src);
    size_t n = replay_dir(dir, LLVMFuzzerTestOneInput);
    snprintf(dir, sizeof dir, "%s/samples", src);
    n += replay_dir(dir, LLVMFuzzerTestOneInput);
    assert_true(n > 0);
    /* a few crafted edge cases */
    static const char *const cases[] = {"", "{", "}", "{\"jobs\":[{}]}", "3;fio-3;x;0;0",
                                        "x: (groupid=0, jobs=1): err= 0\n  read: IOPS=1k, BW=1B/s (1B/s)(1B/1msec)\n",
                                        "    clat percentiles (usec):\n     | 1.00th=[",
                                        "Disk stats (read/write):\n    md0: ios=1/1, aggrios=9/9\n  sda: ios=1/1\n"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        LLVMFuzzerTestOneInput((const uint8_t *)cases[i], strlen(cases[i]));
    const char *corpus = getenv("FSC_CORPUS");
    if (corpus) {
        static const char *const sub[] = {"damaged", "fio-2.0.15", "fio-3.0", "fio-3.33-oracle"};
        for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
            snprintf(dir, sizeof dir, "%s/%s", corpus, sub[i]);
            replay_dir(dir, LLVMFuzzerTestOneInput);
        }
    }
}

/* The other targets: their saved inputs, plus the corpus files they are made for. */
static void test_replay_targets(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        fuzz_fn fuzz;
        const char *corpus_file; /* under FSC_CORPUS */
    } targets[] = {{"fuzz_json", fuzz_json_one, "fio-3.33/g_jsonplus.json"},
                   {"fuzz_terse", fuzz_terse_one, "fio-3.33/g_terse_v5.terse"},
                   {"fuzz_jobfile", fuzz_jobfile_one, "fio-3.33/d_jobfile_two_groups.cmd"},
                   {"fuzz_fastpath", fuzz_fastpath_one, "fio-3.33/b_randwrite_4jobs_nogroup.txt"},
                   {"fuzz_log", fuzz_log_one, "fio-3.33/g_terse_v5.terse"},
                   {"fuzz_gunzip", fuzz_gunzip_one, "fio-3.33/g_jsonplus.json"},
                   {"fuzz_unzip", fuzz_unzip_one, "fio-3.33/g_jsonplus.json"},
                   {"fuzz_pieces", fuzz_pieces_one, "fio-3.33/b_randwrite_4jobs_nogroup.txt"},
                   {"fuzz_mail", fuzz_mail_one,
                    "wild/linux-mailinglist-archives__linux-block.vger.kernel.org.0/m__e52833e01e0d.eml"}};
    const char *src = getenv("FSC_SOURCE_DIR"), *corpus = getenv("FSC_CORPUS");
    assert_non_null(src);
    char dir[4096];
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        snprintf(dir, sizeof dir, "%s/tests/fuzz/regress/%s", src, targets[i].name);
        size_t n = replay_dir(dir, targets[i].fuzz);
        replay_dir(dir, LLVMFuzzerTestOneInput); /* and through the whole parse path */
        assert_true(n > 0); /* every target keeps at least one saved input */
        if (corpus) {
            snprintf(dir, sizeof dir, "%s/%s", corpus, targets[i].corpus_file);
            FILE *f = fopen(dir, "rb");
            if (f) {
                static uint8_t buf[1 << 20];
                size_t got = fread(buf, 1, sizeof buf, f);
                fclose(f);
                targets[i].fuzz(buf, got);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_replay), cmocka_unit_test(test_replay_targets)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
