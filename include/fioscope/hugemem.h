/* SPDX-License-Identifier: MIT */
/*
 * Huge pages for the heaps that parsing fills.
 *
 * The first touch of each 4 KiB page is a page fault. On bare metal one costs well
 * under a microsecond. In a virtual machine whose guest page tables are shadowed
 * (the 2-vCPU guests this project is built and benchmarked on) one costs 12-16 us of
 * CPU: parsing 100 MB of fio 2.x text took about 3,900 faults, some 50 ms of its
 * 0.44 CPU-seconds, and -j 2 on 200 MB about 8,000-12,000. A transparent huge page
 * is one fault for 2 MiB.
 *
 * Linux gives huge pages to anonymous memory marked MADV_HUGEPAGE when THP is in its
 * "madvise" mode (the common default). glibc marks its heaps only when the process
 * starts with GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which a program cannot set for
 * itself, so these functions mark the calling thread's malloc heap instead.
 *
 * FIOSCOPE_NO_HUGEPAGES=1 turns this off (to compare, or where huge pages are
 * unwelcome). Without Linux (and, for the heaps, glibc), the functions do nothing.
 */
#ifndef FIOSCOPE_HUGEMEM_H
#define FIOSCOPE_HUGEMEM_H

#include <stddef.h>

/* Mark the calling thread's malloc heap for huge pages, as far as it has grown: a
 * thread's own heap (a 64 MiB region that glibc grows inside) once; the main heap
 * (brk) again each time it has grown since the last call, but only in a program that
 * asked for it (fsc_hugemem_use_main_heap): in a library, the main heap is the host
 * program's. Cheap when nothing changed: call it after allocating memory that is
 * about to be filled. Thread-safe. */
void fsc_hugemem_advise_heap(void);

/* The program's own choice (fioscope's main): mark the main heap too. */
void fsc_hugemem_use_main_heap(void);

/* A block p[0, n) from malloc or realloc that is big and about to be filled at once
 * (a file read whole): its whole 2 MiB pages are marked (glibc maps such blocks on
 * their own, outside the heaps). A 50 MB buffer took 0.15 s of faults, with huge
 * pages 0.01 s. Blocks under 4 MiB are left alone. */
void fsc_hugemem_advise_block(void *p, size_t n);

#endif
