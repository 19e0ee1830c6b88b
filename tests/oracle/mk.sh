#!/usr/bin/env bash
# Make oracle fixtures: fio writes the same run as JSON and normal text (--output-format=normal,json),
# and (run_terse, into tests/formats/fixtures) as JSON and terse v3-v5 (--output-format=terse,json).
# Needs Debian's fio (3.33). Run by hand; the fixtures are committed so CI does not need fio.
# usage: mk.sh [NAME...]   (only the fixtures named; all without a name)
set -euo pipefail
out=$(cd "$(dirname "$0")" && pwd)/fixtures
work=${FIO_WORKDIR:-/var/tmp/fioscope-oracle}
mkdir -p "$out" "$work"
terse_out=$(cd "$(dirname "$0")/../formats" && pwd)/fixtures
only=" $* "
fixture() { # dir, formats (fio's --output-format), name, fio args...
    local dir=$1 formats=$2 name=$3; shift 3
    [ "$only" = "  " ] || [[ $only == *" $name "* ]] || return 0
    echo "== $name ($formats)"
    mkdir -p "$dir"
    (cd "$work" && fio --output-format="$formats" "$@") > "$dir/$name.${formats//,/+}.txt" 2> "$dir/$name.stderr" || true
    [ -s "$dir/$name.stderr" ] || rm -f "$dir/$name.stderr"
    rm -f "$work"/*.0 "$work"/*.[0-9]*.0 2>/dev/null || true
}
run() { fixture "$out" normal,json "$@"; }
run_terse() { fixture "$terse_out" terse,json "$@"; }
run_three() { fixture "$terse_out" normal,terse,json "$@"; }
T="--runtime=1 --time_based"
run psync-randread-4k   --name=rr --rw=randread --bs=4k --ioengine=psync --size=32m $T
run psync-seqwrite-1m   --name=sw --rw=write --bs=1m --ioengine=psync --size=64m $T
run libaio-randrw-3j    --name=mix --rw=randrw --rwmixread=60 --bs=4k --ioengine=libaio --iodepth=16 --direct=1 --numjobs=3 --size=32m $T
run libaio-group-4j     --name=grp --rw=randread --bs=8k --ioengine=libaio --iodepth=4 --direct=1 --numjobs=4 --group_reporting --size=16m $T
run two-groups          --name=g1 --rw=read --bs=128k --ioengine=psync --size=32m $T --name=g2 --stonewall --rw=write --bs=64k --ioengine=psync --size=32m $T
run null-nsec           --name=nul --ioengine=null --rw=randread --bs=4k --size=1g $T
run null-trim-64k       --name=ntrim --ioengine=null --rw=randtrim --bs=64k --size=2g $T
run null-rw-2j          --name=nrw --ioengine=null --rw=randrw --bs=512 --size=1g --numjobs=2 $T
run fsync-msec          --name=fs --rw=randwrite --bs=4k --ioengine=psync --size=16m --fsync=1 $T
run pctlist-custom      --name=pl --rw=randread --bs=4k --ioengine=psync --size=16m --percentile_list=10:50:90:99.5:99.999 $T
run pctlist-p0          --name=p0 --rw=randread --bs=4k --ioengine=psync --size=16m --percentile_list=25:50:75 $T
run lat-percentiles     --name=lp --rw=randread --bs=4k --ioengine=libaio --iodepth=8 --direct=1 --size=16m --lat_percentiles=1 $T
run slat-clat-lat-pctl  --name=all --rw=randwrite --bs=4k --ioengine=libaio --iodepth=8 --direct=1 --size=16m --slat_percentiles=1 --clat_percentiles=1 --lat_percentiles=1 $T
run kb-base-1000        --name=kb --rw=read --bs=64k --ioengine=psync --size=32m --kb_base=1000 $T
run kb-base-1000-fast   --name=kb --ioengine=null --size=1g --rw=write --bs=4k --kb_base=1000 $T   # bw line in "MiB/s" of 1000 KiB
run unit-base-bits      --name=bits --rw=read --bs=64k --ioengine=psync --size=32m --unit_base=1 $T
run sigfig-1            --name=big --rw=read --bs=16k --ioengine=null --size=4g $T --name=small --rw=read --bs=4k --ioengine=null --size=128m --significant_figures=1 $T --name=sync --rw=randread --bs=4k --ioengine=psync --size=8m --significant_figures=1 $T   # "BW=0TiB/s", "(0GiB/...)", "IOPS=0M": values under half their unit
run steadystate-bw-slope --name=ssb --rw=read --bs=64k --ioengine=psync --size=32m --ss=bw_slope:0.5% --ss_dur=1 --runtime=3 --time_based  # "slope" : -nan in fio's JSON
run unified-both        --name=ub --rw=randrw --bs=4k --ioengine=libaio --iodepth=4 --direct=1 --size=16m --unified_rw_reporting=both $T
run unified-mixed       --name=um --rw=randrw --bs=4k --ioengine=libaio --iodepth=4 --direct=1 --size=16m --unified_rw_reporting=1 $T
run uring-seqread       --name=ur --rw=read --bs=256k --ioengine=io_uring --iodepth=32 --direct=1 --size=128m $T
run description         --name=desc --description="a job: with, odd = chars" --rw=randread --bs=4k --ioengine=psync --size=16m $T
run description-long    --name=dl --description="nightly random read latency on the scratch volume of the build farm, direct IO at a queue depth of one, so that the numbers compare with those published for the previous hardware generation: the same job file, the same kernel, the same firmware and the same filesystem options" --rw=randread --bs=4k --ioengine=psync --size=16m $T   # fio keeps 255 bytes: 7 lines at 40 columns
run rate-limited        --name=rl --rw=randwrite --bs=4k --ioengine=psync --size=16m --rate_iops=500 $T
run big-bs-multi-jobs   --name=big --rw=write --bs=4m --ioengine=libaio --iodepth=2 --direct=1 --size=256m --numjobs=2 $T
run sync-engine-trim-file --name=tf --rw=randrw --bs=16k --ioengine=sync --size=16m --rwmixread=90 $T
run long-job-names     --name=seq-read-$(printf "a%.0s" $(seq 81)) --rw=read --bs=64k --ioengine=psync --size=16m $T --name=rand_write.$(printf "b%.0s" $(seq 140)) --rw=randwrite --bs=4k --ioengine=psync --size=16m $T   # names wider than a wrapped line (fio keeps 127 bytes)
run cpuio               --name=cpu --ioengine=cpuio --cpuload=50 --cpuchunks=1000 $T   # no direction line (runtime 0): only the issued counts
run unified-trim        --name=ub --ioengine=null --rw=randtrim --bs=4k --size=1g --unified_rw_reporting=both $T   # "mixed: IOPS=0" under a trim line
run unit-bits-kb1000    --name=bits --ioengine=psync --rw=read --bs=64k --size=32m --unit_base=1 --kb_base=1000 $T   # "BW=38.5Gbit/s (35.8Gibit/s)"
run err-eacces          --name=er --ioengine=psync --rw=write --bs=4k --size=1m --filename=/proc/version   # the job fails before it runs: no job block (as root: unlink EPERM)
# lines whose tail a wrap puts on the next line (tests/damage/wrap_widths.py)
run ramp-null-M         --name=rnm --ioengine=null --rw=write --bs=256 --size=1g --ramp_time=1 --unit_base=1 --kb_base=1000 $T   # "(733MB/1001msec)" above "; 0 zone resets"
run steadystate         --name=ss --ioengine=null --rw=randread --bs=4k --size=1g --ss=iops:10% --ss_dur=1 --ss_ramp=0 --runtime=3 --time_based   # "..., iops" above "mean dev=0.000%"
run end-fsync           --name=ef --rw=write --bs=64k --ioengine=psync --size=16m --end_fsync=1   # a group line of 80 columns: at 79 a wrap, not a cut
# random runs of session 36 (fio's option combinations that the text and JSON tell apart)
run group-reporting-empty-entry --name=a --ioengine=null --rw=read --size=1g $T --name=b --ioengine=null --rw=write --size=1g $T --group_reporting   # fio's JSON adds an entry of no name in group 4294967295
run kb-base-1000-unified-both --name=kb --rw=write --bs=4k --ioengine=null --size=1g --unified_rw_reporting=both --kb_base=1000 $T   # mixed's "BW=0 (0)" does not tell the base: write's line did
run failed-jobs-alike   --name=full0 --rw=write --bs=4k --ioengine=sync --filename=/dev/full --size=1m --name=full1 --rw=write --bs=4k --ioengine=sync --filename=/dev/full --size=1m --numjobs=3   # err=28 job headers of two names, all as long, are the longest lines: not a text cut at their width
# terse beside JSON (tests/formats/run_terse_fixtures.sh; the profile-guided build trains on them)
run_terse psync-randread-v3    --name=rr --rw=randread --bs=4k --ioengine=psync --size=16m $T
run_terse libaio-group-4j-v3   --name=grp --rw=randread --bs=4k --ioengine=libaio --iodepth=4 --direct=1 --numjobs=4 --group_reporting --size=16m $T
run_terse libaio-randrw-v4     --terse-version=4 --name=rw --rw=randrw --bs=8k --ioengine=libaio --iodepth=8 --direct=1 --size=16m $T
run_terse psync-write-fsync-v5 --terse-version=5 --name=sw --rw=write --bs=64k --ioengine=psync --size=16m --fsync=4 $T
run_terse two-groups-v3        --name=a --rw=read --bs=128k --ioengine=psync --size=16m $T --name=b --stonewall --rw=randwrite --bs=4k --ioengine=psync --size=16m $T
run_terse null-trimwrite-subusec-v4 --terse-version=4 --name=tw --ioengine=null --rw=trimwrite --bs=4k --size=256m --percentile_list=1:5:10:20:50:80:90:95:99   # latencies under 1 usec: terse prints every percentile as 0 (the list stops before the first I/O's tail of some usec)
run_terse name-space-v3        --name="my job" --rw=randread --bs=4k --ioengine=psync --size=16m $T --name="a job name of many short words that a mail client wraps over lines" --rw=write --bs=4k --ioengine=psync --size=16m $T   # job names with spaces, wrapped by terse_wraps.py
run_terse name-space-v4        --terse-version=4 --name="rand read job" --rw=randread --bs=4k --ioengine=psync --size=16m $T
run_terse name-space-v5        --terse-version=5 --name="seq write job" --rw=write --bs=64k --ioengine=psync --size=16m $T
# unified_rw_reporting: =1 prints one direction block (mixed), =both a mixed block after read and write (and trim)
run_terse unified-both-v3      --name=ub --rw=randrw --bs=4k --ioengine=psync --size=16m --unified_rw_reporting=both $T
run_terse unified-one-v4       --terse-version=4 --name=u1 --rw=randrw --bs=4k --ioengine=null --size=256m --unified_rw_reporting=1 $T
run_terse unified-both-v5      --terse-version=5 --name=ut --rw=randtrim --bs=4k --ioengine=null --size=256m --unified_rw_reporting=both $T
# group_reporting on the second job only: fio's empty entry (no name, group -1) is a terse record too
run_terse empty-entry-both-v5  --terse-version=5 --name=j0 --rw=randread --bs=64k --ioengine=null --size=256m --unified_rw_reporting=both $T --name=j1 --rw=write --bs=8k --ioengine=null --size=256m --unified_rw_reporting=both --group_reporting $T
# the normal text, terse and JSON of one run (tests/formats/run_terse_merge.sh reads the text and terse without the JSON): with
# lat_percentiles=1, terse's one list a direction is lat's (fio's stat.c), in clat's slots
run_three lat-pct-libaio-v3    --name=lp --rw=randread --bs=4k --ioengine=libaio --iodepth=16 --direct=1 --size=16m --lat_percentiles=1 $T
run_three lat-pct-only-v5      --terse-version=5 --name=lo --rw=randrw --bs=4k --ioengine=libaio --iodepth=8 --direct=1 --size=16m --clat_percentiles=0 --lat_percentiles=1 $T
run_three clat-pct-2j-v4       --terse-version=4 --name=c2 --rw=randwrite --bs=8k --ioengine=libaio --iodepth=4 --direct=1 --size=16m --numjobs=2 $T
# jobs named with a colon or a blank ("a:b0", "job 1"), two of them failed (no result lines): not hosts' prefixes
run names-colon-blank-failed --name=a:b0 --rw=randtrim --bs=4k --ioengine=io_uring --size=4m $T --name="job 1 with spaces" --rw=trim --bs=4k --ioengine=io_uring --size=2m $T --name=a:b2 --rw=randread --bs=32k --ioengine=io_uring --size=4m $T
# latencies by I/O priority: cmdprio_percentage gives a job's I/Os two priorities; jobs of other prioclass summed by
# group_reporting do too. fio 3.30+ prints "clat prio 1/0 (usec): ..." and "clat prio 1/0 (29.68% of IOs) percentiles",
# JSON "prios"
run cmdprio-randrw      --name=cp --rw=randrw --bs=4k --ioengine=libaio --iodepth=8 --direct=1 --size=16m --cmdprio_percentage=30 $T
run cmdprio-lat-class   --name=cl --rw=randread --bs=4k --ioengine=io_uring --iodepth=4 --direct=1 --size=16m --cmdprio_percentage=50 --cmdprio_class=1 --cmdprio=2 --lat_percentiles=1 $T
run prio-group-reporting --name=lo --rw=randread --bs=4k --ioengine=libaio --iodepth=4 --direct=1 --size=16m --prioclass=2 --prio=7 $T --name=hi --rw=randread --bs=4k --ioengine=libaio --iodepth=4 --direct=1 --size=16m --prioclass=2 --prio=0 $T --group_reporting
# four jobs of three processes each, of classes rt/be/idle and a cmdprio_percentage: its fio 3.33 text has many lines
# of one width (79 columns), which a mail's wrap at 80 leaves as they are (tests/tolerance/run_wraps.sh)
run cmdprio-classes-numjobs3 --bs=16k --size=16M --ioengine=libaio --direct=1 --iodepth=1 --rw=randrw --rwmixread=50 --percentile_list=25:50:75 --numjobs=3 --name=a --prioclass=3 --prio=2 --name=b --prioclass=3 --prio=4 --name=c --prioclass=1 --prio=7 --name=d --prioclass=2 --prio=5 --cmdprio_percentage=64
# --idle-prof: "CPU idleness:" with "system:", "percpu:" and "unit work:" lines after the disk stats (JSON
# "cpu_idleness"); with =system no percpu line, with the null engine no disk stats above them
run idle-prof-percpu     --name=ip --rw=randread --bs=4k --ioengine=psync --size=16m --idle-prof=percpu $T
run idle-prof-system-null --name=ipn --rw=read --bs=4k --ioengine=null --size=1g --idle-prof=system $T
# a tab in a job name (fio prints the name as given): kept in the name, not made a blank as indentation is
run names-tab            --name="$(printf 'tab\tname')" --rw=randread --bs=4k --ioengine=psync --size=4m $T --name="$(printf 'two\ttabs\there')" --rw=write --bs=8k --ioengine=psync --size=4m $T
# job names that begin with a non-ASCII letter: PCRE2 10.42's JIT code matches no bare \S there
run names-non-ascii      --name=é --rw=randread --bs=4k --ioengine=psync --size=4m $T --name=日本語 --rw=write --bs=64k --ioengine=psync --size=4m $T --name="Ünïcode job" --rw=read --bs=128k --ioengine=psync --size=4m $T
# block sizes that are not one size: bs=4k,64k (read, write), bsrange, bssplit; the job line says
# "bs=(R) 4096B-4096B, (W) 64.0KiB-64.0KiB, (T) 64.0KiB-64.0KiB", the JSON the option as given
run bs-per-direction     --name=w --rw=write --bs=4k,64k --ioengine=psync --size=8m $T --name=m --rw=randrw --bs=4k,16k --ioengine=psync --size=8m $T --name=r --rw=randread --bsrange=4k-64k --ioengine=psync --size=8m $T --name=s --rw=randrw --bssplit=4k/50:64k/50 --ioengine=psync --size=8m $T
# continue_on_error: the errors a job let pass, "errors    : total=16, first_error=28/<No space left on device>",
# JSON total_err and first_error, terse's two fields after the disks
run continue-on-error    --name=full --rw=write --bs=4k --ioengine=psync --filename=/dev/full --size=64k --continue_on_error=all --name=ok --rw=read --bs=4k --ioengine=psync --size=8m $T
run_terse continue-on-error-v3 --name=full --rw=write --bs=4k --ioengine=psync --filename=/dev/full --size=64k --numjobs=2 --group_reporting --continue_on_error=all
# fio320-cmdprio-randrw, fio328-cmdprio-lat-pctl, fio338-cmdprio-lat-pctl (fio built from its tag, by hand): fio 3.18-3.29
# print "high prio_clat (usec): ..." and "high prio (29.68%) clat percentiles (usec):" (JSON "clat_high_prio",
# "clat_low_prio"; lat_* with lat_percentiles=1); 3.36+ adds the hint ("clat prio 1/0/0", "priohint"):
#   fio --output-format=normal,json --name=x --filename=F --ioengine=libaio --direct=1 --rw=randrw --bs=4k --size=8M
#   --iodepth=4 --cmdprio_percentage=30 [--lat_percentiles=1]
# fio38-lat-percentiles (fio 3.8 built from its tag, by hand): before 3.18 lat_percentiles=1 made the one list lat's, which
# the JSON wrote under clat_ns: fio --output-format=normal,json --name=lp --rw=randread --bs=4k --ioengine=libaio --iodepth=8
#   --direct=1 --size=16m --lat_percentiles=1 --runtime=1 --time_based
# client-server-2j (fio 3.33 as server and client, by hand): with two jobs the client prints their sum, "All clients:
# (groupid=0, jobs=2)", after the report's Disk stats, and its JSON lists it in client_stats: one run of three jobs.
#   fio --server=localhost,8767 --daemonize=PIDFILE; fio --client=localhost,8767 --output-format=normal,json JOBFILE
#   (JOBFILE: [global] ioengine=psync size=8m runtime=500ms time_based; [rr] rw=randread bs=4k; [sw] rw=write bs=64k)
# client-server-2c (the same, two servers on ports 8771 and 8772, one job each): each client's report (its job,
# summary, Disk stats) in turn, then "All clients"; its JSON lists the clients in another order. One run.
#   fio --output-format=normal,json --client=localhost,8771 JOBFILE --client=localhost,8772 JOBFILE
# fio212-*, fio35-*, fio316-* (fio 2.12, 3.5 and 3.16 built from their tags, by hand; session 42's held-out versions):
#   fio212-kb-base-1000-MB    --name=kb --rw=read --bs=64k --ioengine=psync --size=32m --kb_base=1000: fio <= 2.16 prints
#                             "bw=6463.8MB/s", which kb_base=1000 makes 1000^2 bytes (not only "KB/s" 1000)
#   fio212-kb-base-1000-bits  --name=bk --rw=randwrite --bs=4k --ioengine=psync --size=32m --unit_base=1 --kb_base=1000
#   fio212-unified-kb-base-1000 --name=mp --rw=randrw --bs=4k --ioengine=libaio --iodepth=4 --size=16m
#                             --unified_rw_reporting=1 --percentile_list=50:99 --kb_base=1000 ("mixed: io=...KB")
#   fio212-client-server, fio316-client-server: a server on localhost, --client with two jobs; the sum of all clients
#                             prints its rate without a 'B' ("bw=1478.1M/s", 3.16 "BW=49.0Mi (52.4M)")
#   fio316-end-fsync          --name=ef --rw=write --bs=4k --ioengine=psync --size=16m --end_fsync=1 (issued rwts'
#                             fourth count 1, JSON sync.total_ios 1, no sync latency line)
#   fio35-bits-kb-base-1000-group --name=bg --rw=randrw --bs=4k --ioengine=psync --size=8m --unit_base=1 --kb_base=1000
#                             --numjobs=2 --group_reporting ("bw (Mibit/s)" in steps of kb_base/8 KiB/s)
#   fio316-kb-base-1000-randrw-group --name=kg --rw=randrw --bs=8k --ioengine=libaio --iodepth=4 --numjobs=3
#                             --group_reporting --size=16m --kb_base=1000 ("(101MB/1003msec)": io in MB)
#   (each with --runtime=1 --time_based --output-format=normal,json)
# fio218-*, fio31-*, fio310-* (fio 2.18, 3.1 and 3.10 built from their tags, by hand; session 42):
#   fio31-block-lifetime      --name=be --ioengine=null --rw=trimwrite --bs=4k --size=32m --block_error_percentiles=1
#                             ("block lifetime percentiles :", rows without brackets, "states : unwritten=...")
#   fio218-randtrim-zero-percentiles --name=bt --ioengine=null --rw=randtrim --bs=4k --size=16m
#                             --block_error_percentiles=1 --percentile_list=10:50:90 (clat percentiles all 0 on
#                             2.x's usec clock, clat max 2860 us: a list, in the text and the JSON)
#   fio218-disable-clat       --name=dc --rw=randread --bs=4k --ioengine=psync --size=16m --disable_clat=1
#                             (a zero-filled clat percentile block under no clat line: no list, as the JSON reads)
#   fio310-verify-backlog     --name=vb --rw=randwrite --bs=4k --ioengine=psync --size=8m --verify=crc32c
#                             --verify_backlog=64 (reads with runtime 0: no read line, only issued counts)
#   fio310-client-server      as fio212-client-server (3.10's client prints no Disk stats in the text when
#                             JSON is asked too)
#   fio218-steadystate-bwslope --name=sb --rw=read --bs=64k --ioengine=psync --size=32m --steadystate=bw_slope:10%
#                             --ss_dur=2 --runtime=3 --time_based --kb_base=1000 (a one-decimal value before 2.20)
#   (each with --runtime=1 --time_based --output-format=normal,json unless given)
