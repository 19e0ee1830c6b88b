/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "fioscope/hugemem.h"

#include "fioscope/common.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__linux__) && defined(MADV_HUGEPAGE)

static bool disabled(void)
{
    return fsc_env_switch("FIOSCOPE_NO_HUGEPAGES");
}

void fsc_hugemem_advise_block(void *p, size_t n)
{
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (!p || n < ((size_t)4 << 20) || disabled())
        return;
    uintptr_t from = ((uintptr_t)p + huge - 1) & ~(huge - 1), to = ((uintptr_t)p + n) & ~(huge - 1);
    if (to > from)
        madvise((void *)from, (size_t)(to - from), MADV_HUGEPAGE); /* a hint: failure changes nothing */
}

#else

void fsc_hugemem_advise_block(void *p, size_t n)
{
    (void)p;
    (void)n;
}

#endif

#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE) && UINTPTR_MAX > 0xffffffffu

#include <stdatomic.h>

/* glibc's heaps for threads other than the first are regions of this size, aligned
 * to it (HEAP_MAX_SIZE, twice the largest mmap threshold on 64-bit), that it grows
 * inside: marked once, the whole region takes huge pages as it grows. */
#define THREAD_HEAP_BYTES ((uintptr_t)64 << 20)
/* MADV_COLLAPSE (Linux 6.1), which glibc 2.36's headers do not name yet */
#ifdef MADV_COLLAPSE
#define FSC_MADV_COLLAPSE MADV_COLLAPSE
#else
#define FSC_MADV_COLLAPSE 25
#endif

/* The mapping of /proc/self/maps that holds address at: its bounds, and whether it is
 * the main heap ("[heap]", grown by brk). False when there is none. */
static bool find_mapping(uintptr_t at, uintptr_t *lo, uintptr_t *hi, bool *brk_heap)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return false;
    char *line = NULL;
    size_t cap = 0;
    bool found = false;
    while (!found && getline(&line, &cap, f) > 0) {
        unsigned long a, b;
        if (sscanf(line, "%lx-%lx ", &a, &b) != 2 || at < a || at >= b)
            continue;
        *lo = a;
        *hi = b;
        *brk_heap = strstr(line, "[heap]") != NULL;
        found = true;
    }
    free(line);
    fclose(f);
    return found;
}

/* how far the main heap was marked (its end then); a thread's own heap: marked */
static atomic_bool main_heap_wanted;
static atomic_uintptr_t main_heap_marked;
static _Thread_local bool own_heap_marked;

void fsc_hugemem_use_main_heap(void)
{
    atomic_store(&main_heap_wanted, true);
}

void fsc_hugemem_advise_heap(void)
{
    if (own_heap_marked)
        return;
    uintptr_t top = (uintptr_t)sbrk(0);
    void *probe = malloc(1);
    if (!probe)
        return;
    uintptr_t at = (uintptr_t)probe, lo, hi;
    bool brk_heap;
    /* below the break: the main heap (threads' heaps are mapped far above it), with
     * nothing to do when the program did not ask or it has not grown */
    bool main_heap_done = at < top && (!atomic_load(&main_heap_wanted) ||
                                       top <= atomic_load_explicit(&main_heap_marked, memory_order_relaxed));
    if (!main_heap_done && !disabled() && find_mapping(at, &lo, &hi, &brk_heap)) {
        if (brk_heap) { /* from the part holding the probe to the heap's end */
            uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), end = (top + page - 1) / page * page;
            madvise((void *)lo, (end > hi ? end : hi) - lo, MADV_HUGEPAGE);
            atomic_store_explicit(&main_heap_marked, top, memory_order_relaxed);
        } else if (lo % THREAD_HEAP_BYTES == 0) {
            madvise((void *)lo, THREAD_HEAP_BYTES, MADV_HUGEPAGE);
            /* its first 2 MiB were touched already, page by page (the heap's header,
             * the first blocks): a block with small pages in it stays small and
             * faults on (512 faults a worker, 1,100 of the 1,400 of 200 MB at -j 2),
             * unless it is made one huge page now (Linux 6.1; else nothing) */
            madvise((void *)lo, (size_t)2 << 20, FSC_MADV_COLLAPSE);
            own_heap_marked = true;
        } else {
            own_heap_marked = true; /* not a heap of glibc's shape: leave it */
        }
    } else if (!main_heap_done) {
        own_heap_marked = true; /* switched off, or nothing to find */
    }
    free(probe);
}

#else

void fsc_hugemem_advise_heap(void)
{
}

void fsc_hugemem_use_main_heap(void)
{
}

#endif
