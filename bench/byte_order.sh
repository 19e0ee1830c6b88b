#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The parse stages on a big-endian machine (s390x, under qemu-user) give the same JSON
# as on this one: the word-at-a-time readers (fsc_load_le64 and friends), the pre-scan,
# the model's keys and the number writer all assume the first byte is the lowest of a
# word, and a byte swap makes it so there. Built here: libfioscope's stages (core,
# model, parse, input, lib) and a small driver that prints fioscope_result_json() of
# each input, once with this machine's gcc and once with s390x-linux-gnu-gcc; then the
# number writer and the JSON string scan (buf.c) on a few million values. Run by hand
# (not in CI); it needs, as root:
#   apt-get install gcc-s390x-linux-gnu libc6-dev-s390x-cross qemu-user
# and fetches the s390x libpcre2, libcjson and zlib packages itself (apt-get download).
#
# usage: bench/byte_order.sh [FILE...]   (default: the corpus, the seeds, samples/)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
corpus=${FSC_CORPUS:-$src/../shared/corpus}
build=${FSC_BUILD_DIR:-$src/build}
for t in s390x-linux-gnu-gcc qemu-s390x; do
    command -v $t > /dev/null || { echo "needs $t (see the top of $0)" >&2; exit 2; }
done
[ -e "$build/generated/grammars_data.c" ] || { echo "build first: no $build/generated/grammars_data.c" >&2; exit 2; }
work=$(mktemp -d /tmp/fsc_byteorder.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

# ---- the s390x libraries, unpacked into a folder (no multiarch install) ----
mkdir -p root debs
(cd debs && apt-get download -q libpcre2-8-0:s390x libpcre2-dev:s390x libcjson1:s390x libcjson-dev:s390x \
    zlib1g:s390x zlib1g-dev:s390x > /dev/null 2>&1)
for d in debs/*.deb; do dpkg -x "$d" root; done
lib=$work/root/usr/lib/s390x-linux-gnu

cat > parse_main.c <<'C'
#include "fioscope/fioscope.h"
#include <stdio.h>
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        fioscope_result *res = fioscope_parse_path(argv[i], 0);
        size_t len = 0;
        char *j = res ? fioscope_result_json(res, 0, &len) : NULL;
        if (j)
            fwrite(j, 1, len, stdout);
        putchar('\n');
        fioscope_free(j);
        fioscope_result_free(res);
    }
    return 0;
}
C
cat > numbers_main.c <<'C'
#include "fioscope/buf.h"
#include <stdint.h>
#include <stdio.h>
static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static uint64_t h = 1469598103934665603ULL;
static void mix(const char *s, size_t n) { for (size_t i = 0; i < n; i++) { h ^= (unsigned char)s[i]; h *= 1099511628211ULL; } }
int main(void)
{
    char b[64], s[80];
    for (long m = -2000; m <= 1000000; m++)
        mix(b, fsc_num_fmt(b, (double)m / 100));
    for (int i = 0; i < 2000000; i++) {
        uint64_t u = next() >> (next() % 64);
        mix(b, fsc_u64_fmt(b, u));
        mix(b, fsc_num_fmt(b, (double)(next() % 100000000000ULL) / (double)(1 + next() % 1000000)));
        mix(b, fsc_num_fmt(b, (double)u));
    }
    for (int i = 0; i < 1000000; i++) {
        size_t len = next() % 70;
        for (size_t k = 0; k < len; k++) {
            uint64_t r = next() % 100;
            s[k] = r < 90 ? (char)('a' + r % 26) : "\"\\<>&\x01\x7f\xc3 "[r % 10];
        }
        char p = (char)fsc_json_plain(s, len, i & 1);
        mix(&p, 1);
    }
    printf("%016llx\n", (unsigned long long)h);
    return 0;
}
C

srcs="$(ls "$src"/src/lib/*.c "$src"/src/input/*.c "$src"/src/parse/*.c "$src"/src/model/*.c "$src"/src/core/*.c)
      $build/generated/grammars_data.c"
compile() { # cc tag extra-include...
    local cc=$1 tag=$2 f o
    shift 2
    mkdir -p "obj-$tag"
    for f in $srcs; do
        o=obj-$tag/$(basename "$(dirname "$f")")-$(basename "$f" .c).o
        $cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -DFSC_SOURCE_DIR="\"$src\"" \
            -DFSC_SONAME_ARCHIVE='"libarchive.so.13"' -I"$src/include" -I"$src/src/core" -I"$src/src/parse" \
            -I"$(dirname "$f")" "$@" -c "$f" -o "$o" &
        while [ "$(jobs -r | wc -l)" -ge 2 ]; do wait -n; done
    done
    wait
}
compile gcc native -I/usr/include/cjson
compile s390x-linux-gnu-gcc s390x -I"$work/root/usr/include" -I"$work/root/usr/include/cjson"
gcc -I"$src/include" parse_main.c obj-native/*.o -lpcre2-8 -lcjson -lz -lm -lpthread -o parse-native
s390x-linux-gnu-gcc -I"$src/include" parse_main.c obj-s390x/*.o -L"$lib" -lpcre2-8 -lcjson -lz -lm -lpthread -o parse-s390x
gcc -O2 -I"$src/include" numbers_main.c obj-native/core-buf.o obj-native/core-common.o -lm -lpthread -o numbers-native
s390x-linux-gnu-gcc -O2 -static -I"$src/include" numbers_main.c obj-s390x/core-buf.o obj-s390x/core-common.o \
    -lm -lpthread -o numbers-s390x
s390x() { QEMU_LD_PREFIX=/usr/s390x-linux-gnu LD_LIBRARY_PATH=$lib qemu-s390x "$@"; }
s390x ./parse-s390x /dev/null | grep -q . || { echo "the s390x build does not run under qemu" >&2; exit 1; }

if [ $# = 0 ]; then
    set -- $(find "$corpus" "$src/../shared/seeds" "$src/samples" -type f \( -name '*.txt' -o -name '*.json' \
        -o -name '*.terse' -o -name '*.log' -o -name '*.md' -o -name '*.html' -o -name '*.eml' \) | sort)
fi
./parse-native "$@" > native.jsonl
s390x ./parse-s390x "$@" > s390x.jsonl
runs=$(grep -o '"runs":\[{' native.jsonl | wc -l)
if cmp -s native.jsonl s390x.jsonl; then
    echo "parse: $# inputs, the same JSON on s390x (big-endian) as here ($(wc -c < native.jsonl) bytes, $runs with runs)"
else
    echo "parse: s390x DIFFERS from this machine:"; diff native.jsonl s390x.jsonl | head -20; exit 1
fi
a=$(./numbers-native) b=$(s390x ./numbers-s390x)
[ "$a" = "$b" ] || { echo "numbers: s390x DIFFERS ($b, here $a)"; exit 1; }
echo "numbers and JSON strings: the same on s390x ($a)"
