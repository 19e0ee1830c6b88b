/* SPDX-License-Identifier: MIT */
/* Run context (outline headings, command line / job file) and labels, checked on
 * the seed documents, wild documents and small synthetic ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "parse_int.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *d = malloc((size_t)n + 1);
    assert_non_null(d);
    assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    d[n] = 0;
    *len = (size_t)n;
    return d;
}

/* The first normalized line that comes from original line `orig`. */
static size_t index_of(const fsc_text *t, uint32_t orig)
{
    for (size_t i = 0; i < t->n_lines; i++)
        if (t->lines[i].orig == orig)
            return i;
    fail_msg("no line %u", orig);
    return 0;
}

static const char *corpus_path(const char *rel, char *buf, size_t cap)
{
    const char *c = getenv("FSC_CORPUS");
    snprintf(buf, cap, "%s/%s", c ? c : "/work/shared/corpus", rel);
    return buf;
}

typedef struct doc {
    char *data;
    fsc_text text;
} doc;

static void doc_open(doc *d, const char *rel)
{
    size_t len;
    char path[512];
    d->data = slurp(corpus_path(rel, path, sizeof path), &len);
    assert_int_equal(fsc_normalize(d->data, len, &d->text), FSC_OK);
}

static void doc_open_str(doc *d, const char *s)
{
    d->data = strdup(s);
    assert_int_equal(fsc_normalize(d->data, strlen(s), &d->text), FSC_OK);
}

static void doc_close(doc *d)
{
    fsc_text_free(&d->text);
    free(d->data);
}

/* Context of the run starting at original line `orig`; NULL-terminated want. */
static fsc_run *check_context(const doc *d, uint32_t orig, const char *const *want)
{
    fsc_run *run = fsc_run_new();
    assert_non_null(run);
    assert_int_equal(fsc_context_collect(&d->text, index_of(&d->text, orig), run), FSC_OK);
    size_t n = 0;
    while (want[n])
        n++;
    for (size_t i = 0; i < run->n_context && i < n; i++)
        if (strcmp(run->context[i], want[i]) != 0)
            fail_msg("line %u context[%zu]: got [%s] want [%s]", orig, i, run->context[i], want[i]);
    if (run->n_context != n)
        fail_msg("line %u: %zu context entries, want %zu (last: %s)", orig, run->n_context, n,
                 run->n_context ? run->context[run->n_context - 1] : "-");
    return run;
}

static void check_label(const fsc_run *run, const char *jobname, fsc_label_from from, const char *want)
{
    fsc_job job = {0};
    job.jobname = (char *)jobname;
    char *got = fsc_job_label(run, &job, from);
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

#define CTX(...) ((const char *const[]){__VA_ARGS__, NULL})

/* seeds/002: numbered Chinese headings, gutters before each code block, 31 runs. */
static void test_seed_002_labels(void **state)
{
    static const struct {
        uint32_t line;
        const char *label;
    } runs[] = {
        {72, "磁盘基准测试 › 4k 随机写 › 4k_randwrite"},   {166, "磁盘基准测试 › 4k 随机读 › 4k_randread"},
        {276, "磁盘基准测试 › 4k 随机读写 › 4k_randrw"},   {381, "磁盘基准测试 › 4M 顺序写 › 4m_seq_write"},
        {472, "磁盘基准测试 › 4M 顺序读 › 4m_seq_read"},   {630, "RAID 0 › 4k 随机写 › 4k_randwrite"},
        {733, "RAID 0 › 4k 随机读 › 4k_randread"},         {854, "RAID 0 › 4k 随机读写 › 4k_randrw"},
        {970, "RAID 0 › 4M 顺序写 › 4m_seq_write"},        {1066, "RAID 0 › 4M 顺序读 › 4m_seq_read"},
        {1235, "RAID 1 › 4k 随机写 › 4k_randwrite"},       {1338, "RAID 1 › 4k 随机读 › 4k_randread"},
        {1459, "RAID 1 › 4k 随机读写 › 4k_randrw"},        {1574, "RAID 1 › 4M 顺序写 › 4m_seq_write"},
        {1673, "RAID 1 › 4M 顺序读 › 4m_seq_read"},        {1778, "RAID 1 › 4M 多进程读 › 4m_seq_read"},
        {1948, "RAID 5 › 4k 随机写 › 4k_randwrite"},       {2053, "RAID 5 › 4k 随机读 › 4k_randread"},
        {2174, "RAID 5 › 4k 随机读写 › 4k_randrw"},        {2289, "RAID 5 › 4M 顺序写 › 4m_seq_write"},
        {2387, "RAID 5 › 4M 顺序读 › 4m_seq_read"},        {2552, "RAID 6 › 4k 随机写 › 4k_randwrite"},
        {2654, "RAID 6 › 4k 随机读 › 4k_randread"},        {2774, "RAID 6 › 4k 随机读写 › 4k_randrw"},
        {2889, "RAID 6 › 4M 顺序写 › 4m_seq_write"},       {2989, "RAID 6 › 4M 顺序读 › 4m_seq_read"},
        {3154, "RAID 10 › 4k 随机写 › 4k_randwrite"},      {3256, "RAID 10 › 4k 随机读 › 4k_randread"},
        {3375, "RAID 10 › 4k 随机读写 › 4k_randrw"},       {3489, "RAID 10 › 4M 顺序写 › 4m_seq_write"},
        {3588, "RAID 10 › 4M 顺序读 › 4m_seq_read"},
    };
    (void)state;
    doc d;
    doc_open(&d, "../seeds/002_6f6d330e65d35f74.txt");
    char *labels[sizeof runs / sizeof *runs];
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
        size_t i = index_of(&d.text, runs[r].line);
        const char *s = fsc_text_line(&d.text, i);
        assert_non_null(strstr(s, "(groupid="));
        fsc_run *run = fsc_run_new();
        assert_int_equal(fsc_context_collect(&d.text, i, run), FSC_OK);
        fsc_job job = {0};
        job.jobname = strndup(s, (size_t)(strchr(s, ':') - s));
        labels[r] = fsc_job_label(run, &job, FSC_LABEL_HEADING);
        assert_string_equal(labels[r], runs[r].label);
        assert_non_null(run->command);
        assert_true(strncmp(run->command, "fio --name=", 11) == 0);
        free(job.jobname);
        fsc_run_free(run);
    }
    for (size_t a = 0; a < sizeof runs / sizeof *runs; a++) /* the 31 labels are unique */
        for (size_t b = a + 1; b < sizeof runs / sizeof *runs; b++)
            assert_string_not_equal(labels[a], labels[b]);
    for (size_t r = 0; r < sizeof runs / sizeof *runs; r++)
        free(labels[r]);
    doc_close(&d);
}

static void test_seed_002_context(void **state)
{
    (void)state;
    doc d;
    doc_open(&d, "../seeds/002_6f6d330e65d35f74.txt");
    static const char *const cmd_22 =
        "fio --name=4k_randwrite --rw=randwrite --bs=4k --ioengine=libaio --direct=1 --numjobs=8 --iodepth=32 "
        "--size=20G --time_based --runtime=120 --group_reporting --allow_mounted_write=1 "
        "--filename=/mnt/mdadm/fio-4k-randwrite.dat";
    /* section 2.2: the heading keeps its number in the context, the label drops it */
    fsc_run *run = check_context(&d, 630, CTX("xfs 在各种 RAID 下的性能测试", "2. RAID 0", "2.2 4k 随机写", cmd_22));
    assert_true(run->context_titled);
    assert_string_equal(run->command, cmd_22);
    check_label(run, "4k_randwrite", FSC_LABEL_HEADING, "RAID 0 › 4k 随机写 › 4k_randwrite");
    check_label(run, "4k_randwrite", FSC_LABEL_JOB, "4k_randwrite");
    fsc_run_free(run);
    /* the same run found from its "Starting 8 processes" line, or from its command */
    run = check_context(&d, 627, CTX("xfs 在各种 RAID 下的性能测试", "2. RAID 0", "2.2 4k 随机写", cmd_22));
    fsc_run_free(run);
    run = check_context(&d, 575, CTX("xfs 在各种 RAID 下的性能测试", "2. RAID 0", "2.2 4k 随机写", cmd_22));
    fsc_run_free(run);
    run = check_context(&d, 72,
                        CTX("xfs 在各种 RAID 下的性能测试", "1. 磁盘基准测试", "1.1 4k 随机写",
                            "fio --name=4k_randwrite --rw=randwrite --bs=4k --ioengine=libaio --direct=1 "
                            "--numjobs=8 --iodepth=32 --size=20G --time_based --runtime=120 --group_reporting "
                            "--allow_mounted_write=1 --filename=/data1/fio-4k-randwrite.dat"));
    fsc_run_free(run);
    doc_close(&d);
}

/* seeds/001: a forum post without blank lines; short captions name the pools. */
static void test_seed_001(void **state)
{
    (void)state;
    doc d;
    doc_open(&d, "../seeds/001_1962a9265fb64240.txt");
    fsc_run *run = check_context(
        &d, 29,
        CTX("Axle", "fio --name=write_iops --directory=/mnt/axle/fio --size=10G --time_based --runtime=60s "
                    "--ramp_time=2s --direct=1 --verify=0 --bs=4K --iodepth=64 --rw=randwrite --group_reporting=1"));
    check_label(run, "write_iops", FSC_LABEL_HEADING, "Axle › write_iops");
    fsc_run_free(run);
    /* the command was soft-wrapped inside "--runtime=60s" */
    run = check_context(&d, 61,
                        CTX("Axle-ssd", "fio --name=write_iops --directory=/mnt/axle-ssd/fio --size=10G --time_based "
                                        "--runtime=60s --ramp_time=2s --direct=1 --verify=0 --bs=4K --iodepth=64 "
                                        "--rw=randwrite --group_reporting=1"));
    fsc_run_free(run);
    run = check_context(&d, 128,
                        CTX("axle ssd", "fio --name=read_iops --directory=/mnt/axle-ssd/fio --size=10G --time_based "
                                        "--runtime=60s --ramp_time=2s --direct=1 --verify=0 --bs=4K --iodepth=64 "
                                        "--rw=randread --group_reporting=1"));
    check_label(run, "read_iops", FSC_LABEL_HEADING, "axle ssd › read_iops");
    fsc_run_free(run);
    doc_close(&d);
}

/* seeds/003: a mail with the job file in the body and runs as attachments. */
static void test_seed_003(void **state)
{
    (void)state;
    doc d;
    doc_open(&d, "../seeds/003_3cf167f7dc0b6f4b.txt");
    fsc_run *run = check_context(&d, 44,
                                 CTX("Re: [linux-lvm] Testing the new LVM cache feature", "virt-ham0-raid1.txt",
                                     "[virt]\nioengine=libaio\niodepth=4\nrw=randrw\nbs=64k\ndirect=1\nsize=1g\n"
                                     "numjobs=4"));
    check_label(run, "virt", FSC_LABEL_HEADING, "virt-ham0-raid1.txt › virt");
    check_label(run, "virt", FSC_LABEL_CONTEXT,
                "Re: [linux-lvm] Testing the new LVM cache feature › virt-ham0-raid1.txt › [virt]\n"
                "ioengine=libaio\niodepth=4\nrw=randrw\nbs=64k\ndirect=1\nsize=1g\nnumjobs=4 › virt");
    fsc_run_free(run);
    /* the second attachment: the first run's output stands between it and the job file */
    run = check_context(&d, 196, CTX("Re: [linux-lvm] Testing the new LVM cache feature", "virt-ham0-lvmcache.txt"));
    assert_null(run->command);
    check_label(run, "virt", FSC_LABEL_HEADING, "virt-ham0-lvmcache.txt › virt");
    fsc_run_free(run);
    doc_close(&d);
}

/* Markdown: two "##" headings in a row form one heading; prompts before fio. */
static void test_wild_ignalina(void **state)
{
    (void)state;
    doc d;
    doc_open(&d, "wild/Ignalina__racksetup/performance__readme.md");
    fsc_run *run = check_context(
        &d, 6,
        CTX("Random 4K read QD1", "2 x Samsung 9a3 pci 4.0 (aoc supermicro card x4) iouring raid0 xfs",
            "fio --name TEST --eta-newline=5s --filename=fio-tempfile.dat --rw=randread --size=500m --io_size=10g "
            "--blocksize=4k --ioengine=io_uring --fsync=1 --iodepth=1 --direct=1 --numjobs=1 --runtime=60 "
            "--group_reporting"));
    fsc_run_free(run);
    run = check_context(
        &d, 156,
        CTX("Sequential READ speed with big blocks QD32",
            "2 x Samsung 1733 pci 4.0 (aoc supermicro card x4) libaio raid0 ext4",
            "fio --name TEST --eta-newline=5s --filename=fio-tempfile.dat --rw=read --size=500m --io_size=10g "
            "--blocksize=1024k --ioengine=libaio --fsync=10000 --iodepth=32 --direct=1 --numjobs=1 --runtime=60 "
            "--group_reporting"));
    check_label(run, "TEST", FSC_LABEL_HEADING,
                "Sequential READ speed with big blocks QD32 › 2 x Samsung 1733 pci 4.0 (aoc supermicro card x4) "
                "libaio raid0 ext4 › TEST");
    fsc_run_free(run);
    doc_close(&d);
}

/* Markdown "#" sections with "Caption:" lines; "# comment" inside ``` is no heading. */
static void test_wild_k8s_homelab(void **state)
{
    (void)state;
    doc d;
    doc_open(&d, "wild/d-uzlov__k8s-homelab/docs__disk-test__test-fsync.md");
    fsc_run *run = check_context(&d, 20, CTX("Main RAID array"));
    assert_null(run->command);
    check_label(run, "mytest", FSC_LABEL_HEADING, "Main RAID array › mytest");
    fsc_run_free(run);
    run = check_context(&d, 142,
                        CTX("Main RAID array without SLOG", "ZFS, Truenas Core",
                            "fio --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=4k --name=mytest "
                            "--filename=test-data"));
    check_label(run, "mytest", FSC_LABEL_HEADING, "Main RAID array without SLOG › ZFS, Truenas Core › mytest");
    fsc_run_free(run);
    run = check_context(&d, 265,
                        CTX("NVMe Intel Optane M10 16GB MEMPEK1J016GAL", "Raw device, block 4k",
                            "fio --rw=write --ioengine=sync --fdatasync=1 --size=22m --bs=4k --name=mytest "
                            "--filename=/dev/nvme1n1"));
    fsc_run_free(run);
    doc_close(&d);
}

/* Setext and bold headings, sibling sections, job files, label modes. */
static void test_synthetic(void **state)
{
    (void)state;
    doc d;
    doc_open_str(&d, "Storage notes\n"
                     "=============\n"
                     "\n"
                     "Old box\n"
                     "-------\n"
                     "\n"
                     "nothing here\n"
                     "\n"
                     "New box\n"
                     "-------\n"
                     "\n"
                     "**Run A**\n"
                     "\n"
                     "[global]\n"
                     "ioengine=libaio\n"
                     "[seq]\n"
                     "rw=read\n"
                     "time_based\n"
                     "\n"
                     "seq: (g=0): rw=read, bs=(R) 4096B-4096B, ioengine=libaio, iodepth=1\n"
                     "Run status group 0 (all jobs):\n"
                     "\n"
                     "$ sudo fio --name=seq2 \\\n"
                     "    --rw=write\n"
                     "seq2: (g=0): rw=write\n");
    fsc_run *run = check_context(&d, 20, CTX("Storage notes", "New box", "Run A",
                                             "[global]\nioengine=libaio\n[seq]\nrw=read\ntime_based"));
    check_label(run, "seq", FSC_LABEL_HEADING, "New box › Run A › seq");
    check_label(run, "seq", FSC_LABEL_JOB, "seq");
    run->source.path = strdup("dir/notes.md");
    run->source.member = strdup("a/b.txt");
    check_label(run, "seq", FSC_LABEL_FILE, "notes.md › a/b.txt › seq");
    fsc_run_free(run);
    run = check_context(&d, 25, CTX("Storage notes", "New box", "Run A", "fio --name=seq2 --rw=write"));
    fsc_run_free(run);
    doc_close(&d);

    /* a heading equal to the job name is not repeated; no heading: the job alone */
    doc_open_str(&d, "# randread\n\nrandread: (g=0): rw=randread\n");
    run = check_context(&d, 3, CTX("randread"));
    assert_false(run->context_titled);
    check_label(run, "randread", FSC_LABEL_HEADING, "randread");
    fsc_run_free(run);
    doc_close(&d);
    doc_open_str(&d, "randread: (g=0): rw=randread\n");
    run = check_context(&d, 1, (const char *const[]){NULL});
    check_label(run, "randread", FSC_LABEL_HEADING, "randread");
    check_label(run, NULL, FSC_LABEL_HEADING, "");
    fsc_run_free(run);
    doc_close(&d);
}

/* `tail -n +1 a.log b.log` names each file ("==> a.log <=="): the caption of the file
 * below, under the headings above (an article's "# Old results"), closing the caption
 * of the file before. */
static void test_file_banners(void **state)
{
    (void)state;
    doc d;
    doc_open_str(&d, "# Old results\n"
                     "\n"
                     "seq: (g=0): rw=read\n"
                     "\n"
                     "==> randread.log <==\n"
                     "randread: (g=0): rw=randread\n"
                     "\n"
                     "==> notes/seq write.log <==\n"
                     "Box B\n"
                     "\n"
                     "seqw: (g=0): rw=write\n"
                     "==>  <==\n"
                     "x: (g=0): rw=read\n");
    fsc_run *run = check_context(&d, 3, CTX("Old results"));
    fsc_run_free(run);
    run = check_context(&d, 6, CTX("Old results", "randread.log"));
    check_label(run, "randread", FSC_LABEL_HEADING, "Old results › randread.log › randread");
    fsc_run_free(run);
    run = check_context(&d, 11, CTX("Old results", "notes/seq write.log"));
    fsc_run_free(run);
    /* a banner with no name is no heading */
    run = check_context(&d, 13, CTX("Old results", "notes/seq write.log"));
    fsc_run_free(run);
    doc_close(&d);
}

/* A label right above a run's first line ("Before:", "After:" over the result lines
 * a mail compares) is that run's context alone; one right after a line of prose is
 * none. */
static void test_run_labels(void **state)
{
    (void)state;
    doc d;
    doc_open_str(&d, "# Patch v2\n"
                     "\n"
                     "Before:\n"
                     "  read: IOPS=1234k, BW=4821MiB/s (5055MB/s)(47.1GiB/10001msec)\n"
                     "After:\n"
                     "  read: IOPS=1456k, BW=5688MiB/s (5964MB/s)(55.5GiB/10001msec)\n"
                     "\n"
                     "This is what we saw:\n"
                     "t: (g=0): rw=read\n"
                     "\n"
                     "We ran the job twice\n"
                     "Result:\n"
                     "t2: (g=0): rw=write\n");
    fsc_run *run = check_context(&d, 4, CTX("Patch v2", "Before"));
    fsc_run_free(run);
    run = check_context(&d, 6, CTX("Patch v2", "After"));
    fsc_run_free(run);
    run = check_context(&d, 9, CTX("Patch v2", "This is what we saw"));
    fsc_run_free(run);
    run = check_context(&d, 13, CTX("Patch v2"));
    fsc_run_free(run);
    doc_close(&d);
}

/* reST: "Title::" introduces a literal block; the caption is the title without "::"
 * (a single colon goes too, and "::" alone on its line is no caption). */
static void test_rest_literal_marker(void **state)
{
    (void)state;
    doc d;
    doc_open_str(&d, "Block size\n"
                     "==========\n"
                     "\n"
                     "Then the same job with 64k blocks::\n"
                     "\n"
                     "    rr: (g=0): rw=randread\n"
                     "\n"
                     "And once more:\n"
                     "\n"
                     "    rr: (g=0): rw=randread\n");
    fsc_run *run = check_context(&d, 6, CTX("Block size", "Then the same job with 64k blocks"));
    check_label(run, "rr", FSC_LABEL_HEADING, "Block size › Then the same job with 64k blocks › rr");
    fsc_run_free(run);
    run = check_context(&d, 10, CTX("Block size", "And once more"));
    fsc_run_free(run);
    doc_close(&d);
}

/* Lines that look short and alone but are not headings. */
static void test_not_headings(void **state)
{
    (void)state;
    doc d;
    doc_open_str(&d, "On Mon, Aug 05 2019, Someone wrote:\n"
                     "\n"
                     "# ./test_loop.sh 10\n"
                     "\n"
                     "fio: terminating on signal 2\n"
                     "\n"
                     "Tue Jul  4 14:45:36 UTC 2023\n"
                     "\n"
                     "root@box:~# ls\n"
                     "\n"
                     "/dev/nvme0n1\n"
                     "\n"
                     "unused devices: <none>\n"
                     "\n"
                     "```\n"
                     "# Results\n"
                     "```\n"
                     "\n"
                     "result on 5.3 kernel\n"
                     "root@ib1:/home/j# fio  --rw=write --iodepth=32\n"
                     "--size=1000MB --rate_iops=5\n"
                     "--time_based --name=write-test\n"
                     "write-test: (g=0): rw=write\n");
    fsc_run *run = check_context(&d, 23, CTX("result on 5.3 kernel",
                                             "fio --rw=write --iodepth=32 --size=1000MB --rate_iops=5 "
                                             "--time_based --name=write-test"));
    check_label(run, "write-test", FSC_LABEL_HEADING, "result on 5.3 kernel › write-test");
    fsc_run_free(run);
    /* just above the caption: none of the lines before it is a heading */
    run = check_context(&d, 19, (const char *const[]){NULL});
    fsc_run_free(run);
    doc_close(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_002_labels), cmocka_unit_test(test_seed_002_context),
        cmocka_unit_test(test_seed_001),        cmocka_unit_test(test_seed_003),
        cmocka_unit_test(test_wild_ignalina),   cmocka_unit_test(test_wild_k8s_homelab),
        cmocka_unit_test(test_synthetic),       cmocka_unit_test(test_not_headings),
        cmocka_unit_test(test_rest_literal_marker), cmocka_unit_test(test_run_labels),
        cmocka_unit_test(test_file_banners),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
