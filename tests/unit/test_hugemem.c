/* SPDX-License-Identifier: MIT */
/* Huge pages for the heaps: the mapping that holds a thread's allocations is marked
 * (VmFlags "hg" in /proc/self/smaps) after fsc_hugemem_advise_heap, and is not when
 * FIOSCOPE_NO_HUGEPAGES is set. Where the kernel has no THP, or under ASan (whose
 * allocator is not glibc's), only that the calls are harmless is checked. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "fioscope/hugemem.h"

#if defined(__SANITIZE_ADDRESS__)
#define GLIBC_HEAPS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GLIBC_HEAPS 0
#endif
#endif
#ifndef GLIBC_HEAPS
#if defined(__linux__) && defined(__GLIBC__) && UINTPTR_MAX > 0xffffffffu
#define GLIBC_HEAPS 1
#else
#define GLIBC_HEAPS 0
#endif
#endif

static bool have_thp(void)
{
    return GLIBC_HEAPS && access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) == 0;
}

/* The line that starts with key in the /proc/self/smaps entry of the mapping that
 * holds p, copied into out[0, len); false when there is none. */
static bool smaps_field(const void *p, const char *key, char *out, size_t len)
{
    FILE *f = fopen("/proc/self/smaps", "re");
    if (!f)
        return false;
    char *line = NULL;
    size_t cap = 0;
    bool inside = false, found = false;
    uintptr_t at = (uintptr_t)p;
    while (!found && getline(&line, &cap, f) > 0) {
        unsigned long a, b;
        char dash;
        if (sscanf(line, "%lx%c%lx ", &a, &dash, &b) == 3 && dash == '-')
            inside = at >= a && at < b;
        else if (inside && !strncmp(line, key, strlen(key)))
            found = snprintf(out, len, "%s", line) >= 0;
    }
    free(line);
    fclose(f);
    return found;
}

/* 1: the mapping holding p is marked for huge pages, 0: it is not, -1: not found */
static int marked_huge(const void *p)
{
    char flags[512];
    return smaps_field(p, "VmFlags:", flags, sizeof flags) ? strstr(flags, " hg") != NULL : -1;
}

/* kB of huge pages in the mapping that holds p (AnonHugePages), -1: none found */
static long huge_kb(const void *p)
{
    char field[128];
    long kb;
    return smaps_field(p, "AnonHugePages:", field, sizeof field) && sscanf(field, "AnonHugePages: %ld", &kb) == 1
               ? kb
               : -1;
}

/* Does this kernel make a touched 2 MiB block one huge page on request
 * (MADV_COLLAPSE, Linux 6.1)? */
static bool collapse_works(void)
{
    const size_t huge = (size_t)2 << 20;
    char *m = mmap(NULL, 2 * huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return false;
    char *block = (char *)(((uintptr_t)m + huge - 1) & ~(uintptr_t)(huge - 1));
    block[0] = 1;
    bool ok = madvise(block, huge, 25 /* MADV_COLLAPSE */) == 0;
    munmap(m, 2 * huge);
    return ok;
}

struct probe {
    bool disable;
    int marked;
    long first_huge_kb; /* huge pages of the heap's first block, touched before */
};

/* In a thread of its own (a heap of its own): advise, then look at where a new
 * allocation lives. */
static void *thread_probe(void *arg)
{
    struct probe *pr = arg;
    void *first = malloc(64); /* the thread's heap exists before it is advised */
    enum { FILL = 640 }; /* and spans more than its first 2 MiB, touched page by page */
    void **fill = malloc(FILL * sizeof *fill);
    assert_non_null(fill);
    for (size_t i = 0; i < FILL; i++)
        assert_non_null(fill[i] = malloc(4000));
    fsc_hugemem_advise_heap();
    fsc_hugemem_advise_heap(); /* twice is harmless */
    char *p = malloc(4096);
    assert_non_null(p);
    memset(p, 1, 4096);
    pr->marked = marked_huge(p);
    pr->first_huge_kb = huge_kb(first);
    for (size_t i = 0; i < FILL; i++)
        free(fill[i]);
    free(fill);
    free(p);
    free(first);
    return NULL;
}

static struct probe run_probe(bool disable)
{
    if (disable)
        setenv("FIOSCOPE_NO_HUGEPAGES", "1", 1);
    else
        unsetenv("FIOSCOPE_NO_HUGEPAGES");
    struct probe pr = {disable, -1, -1};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, thread_probe, &pr), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    unsetenv("FIOSCOPE_NO_HUGEPAGES");
    return pr;
}

/* first: an exited thread's heap is handed to the next thread, marked or not */
static void test_switched_off(void **state)
{
    (void)state;
    int marked = run_probe(true).marked;
    if (have_thp())
        assert_int_equal(marked, 0);
}

static void test_thread_heap(void **state)
{
    (void)state;
    struct probe pr = run_probe(false);
    if (have_thp())
        assert_int_equal(pr.marked, 1);
    /* the first block, touched page by page before the advice, is one huge page now */
    if (have_thp() && collapse_works())
        assert_true(pr.first_huge_kb >= 2048);
}

static void test_main_heap(void **state)
{
    (void)state;
    /* grow the main heap by a few MiB of small blocks, then advise it: left alone until
     * the program asks for it (a library's host owns it) */
    enum { N = 4096 };
    void **blocks = calloc(N, sizeof *blocks);
    assert_non_null(blocks);
    for (size_t i = 0; i < N; i++) {
        blocks[i] = malloc(1024);
        assert_non_null(blocks[i]);
    }
    fsc_hugemem_advise_heap();
    if (have_thp())
        assert_int_equal(marked_huge(blocks[N - 1]), 0);
    fsc_hugemem_use_main_heap();
    fsc_hugemem_advise_heap();
    if (have_thp())
        assert_int_equal(marked_huge(blocks[N - 1]), 1);
    /* grown again: marked again */
    void **more = calloc(N, sizeof *more);
    assert_non_null(more);
    for (size_t i = 0; i < N; i++)
        more[i] = malloc(2048);
    fsc_hugemem_advise_heap();
    if (have_thp() && marked_huge(more[N - 1]) >= 0)
        assert_int_equal(marked_huge(more[N - 1]), 1);
    for (size_t i = 0; i < N; i++) {
        free(blocks[i]);
        free(more[i]);
    }
    free(blocks);
    free(more);
}

/* a big block (glibc maps it on its own): its whole 2 MiB pages (run before the main
 * heap is marked, so that nothing else marks it) */
static void test_block(void **state)
{
    (void)state;
    size_t n = (size_t)8 << 20;
    char *big = malloc(n);
    assert_non_null(big);
    fsc_hugemem_advise_block(big, n);
    fsc_hugemem_advise_block(NULL, n);
    if (have_thp())
        assert_int_equal(marked_huge(big + n / 2), 1);
    setenv("FIOSCOPE_NO_HUGEPAGES", "1", 1);
    char *off = malloc(n);
    assert_non_null(off);
    fsc_hugemem_advise_block(off, n);
    unsetenv("FIOSCOPE_NO_HUGEPAGES");
    if (have_thp())
        assert_int_equal(marked_huge(off + n / 2), 0);
    free(off);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_switched_off),
        cmocka_unit_test(test_thread_heap),
        cmocka_unit_test(test_block),
        cmocka_unit_test(test_main_heap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
