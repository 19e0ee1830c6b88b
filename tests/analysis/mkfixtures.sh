#!/usr/bin/env bash
# How the fixtures of this folder were made (fio 3.33, null engine, so any machine can
# run it; the numbers differ on every run, the committed files are one such run).
#  old-box.md: job names alpha_*, numjobs=1, 4 repeats of randread, 1 of randwrite
#  new-box.md: job names rr-*/rw-*, numjobs=2 with group_reporting, same rw/bs/iodepth
set -euo pipefail
cd "$(dirname "$0")"
run() { echo '```'; echo "\$ fio $*"; fio "$@" 2>&1; echo '```'; echo; }
{
    echo "# Old box"; echo
    echo "Notes from the old machine. Four runs of the same random read job:"; echo
    for i in 1 2 3 4; do
        echo "## Run $i"; echo
        run --name=alpha_randread --ioengine=null --rw=randread --bs=4k --iodepth=1 --size=512m
    done
    echo "## Writes"; echo
    run --name=alpha_randwrite --ioengine=null --rw=randwrite --bs=4k --iodepth=1 --size=512m
} >old-box.md
{
    echo "# New box"; echo
    echo "The new machine, two jobs per test this time."; echo
    for i in 1 2 3 4; do
        echo "## Attempt $i"; echo
        run --name=rr-test --ioengine=null --rw=randread --bs=4k --iodepth=1 --size=1g --numjobs=2 --group_reporting
    done
    echo "## Random writes"; echo
    run --name=rw-test --ioengine=null --rw=randwrite --bs=4k --iodepth=1 --size=1g --numjobs=2 --group_reporting
} >new-box.md
