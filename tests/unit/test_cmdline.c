/* SPDX-License-Identifier: MIT */
/* Job options from the fio command line or job file shown before a run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "parse_int.h"

static fsc_run *run_with_jobs(const char *command, const char *const *names, size_t n)
{
    fsc_run *run = fsc_run_new();
    assert_non_null(run);
    run->command = strdup(command);
    for (size_t i = 0; i < n; i++) {
        fsc_job *j = fsc_run_add_job(run);
        assert_non_null(j);
        j->jobname = names[i] ? strdup(names[i]) : NULL;
    }
    return run;
}

static void test_command_line(void **state)
{
    (void)state;
    /* seeds/002 shows its runs this way, without fio's header line */
    const char *names[] = {"4k_randwrite"};
    fsc_run *run = run_with_jobs("fio \\\n  --name=4k_randwrite \\\n  --rw=randwrite \\\n  --bs=4k \\\n"
                                 "  --ioengine=libaio \\\n  --direct=1 \\\n  --numjobs=8 \\\n  --iodepth=32 \\\n"
                                 "  --size=20G --filename=/data1/fio-4k-randwrite.dat",
                                 names, 1);
    fsc_command_apply_options(run);
    const fsc_job *j = &run->jobs[0];
    assert_string_equal(fsc_job_option(j, "rw"), "randwrite");
    assert_string_equal(fsc_job_option(j, "bs"), "4k");
    assert_string_equal(fsc_job_option(j, "ioengine"), "libaio");
    assert_string_equal(fsc_job_option(j, "iodepth"), "32");
    assert_string_equal(fsc_job_option(j, "numjobs"), "8");
    assert_string_equal(fsc_job_option(j, "direct"), "1");
    assert_string_equal(fsc_job_option(j, "filename"), "/data1/fio-4k-randwrite.dat");
    fsc_run_free(run);
}

static void test_job_file_and_global(void **state)
{
    (void)state;
    const char *names[] = {"seqread", "seqwrite"};
    fsc_run *run = run_with_jobs("[global]\nioengine=psync\nsize=16m\n[seqread]\nrw=read\nbs=1m\n"
                                 "[seqwrite]\nstonewall\nrw=write\nbs=128k\n",
                                 names, 2);
    /* what fio's own header line showed wins over the command */
    assert_true(fsc_job_set_option(&run->jobs[1], "bs", "131072B"));
    fsc_command_apply_options(run);
    assert_string_equal(fsc_job_option(&run->jobs[0], "rw"), "read");
    assert_string_equal(fsc_job_option(&run->jobs[0], "bs"), "1m");
    assert_string_equal(fsc_job_option(&run->jobs[0], "ioengine"), "psync");
    assert_string_equal(fsc_job_option(&run->jobs[1], "rw"), "write");
    assert_string_equal(fsc_job_option(&run->jobs[1], "bs"), "131072B");
    assert_string_equal(fsc_job_option(&run->jobs[1], "size"), "16m");
    fsc_run_free(run);
}

static void test_other_names_untouched(void **state)
{
    (void)state;
    const char *names[] = {"other"};
    fsc_run *run = run_with_jobs("fio --name=mine --rw=randread --bs=8k", names, 1);
    fsc_command_apply_options(run);
    assert_null(fsc_job_option(&run->jobs[0], "rw"));
    fsc_run_free(run);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_command_line),
        cmocka_unit_test(test_job_file_and_global),
        cmocka_unit_test(test_other_names_untouched),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
