#!/usr/bin/env bash
# A fresh install into a temporary prefix, used as a user would: `cmake --install`
# and `make install` put everything in place; the man page renders with man -l; bash
# loads the completion and completes commands, options and metric names (zsh and
# fish read theirs); a C program builds with pkg-config against the shared and the
# static library and parses a sample; the shared library exports the API alone;
# python3 imports the module from the prefix and parses through the library.
case "${FSC_BUILD_DIR:-}" in *asan*) echo "install: run by the plain suite"; exit 0 ;; esac
source "$(dirname "$0")/../input/lib.sh"   # a temporary folder, fail()
set +o pipefail  # "| grep -q" may end a writer early
: "${FSC_SOURCE_DIR:?}" "${FSC_BUILD_DIR:?}"
P=$T/prefix
S=$FSC_CORPUS/fio-3.33/c_randrw70_libaio_4jobs_group.txt

cmake --install "$FSC_BUILD_DIR" --prefix "$P" > install.log || fail "cmake --install: $(cat install.log)"
for f in bin/fioscope share/man/man1/fioscope.1 share/bash-completion/completions/fioscope \
         share/zsh/site-functions/_fioscope share/fish/vendor_completions.d/fioscope.fish \
         lib/libfioscope.so lib/libfioscope.a include/fioscope/fioscope.h lib/pkgconfig/fioscope.pc \
         lib/python3/dist-packages/fioscope/__init__.py; do
    [ -e "$P/$f" ] || fail "not installed: $f"
done
[ ! -e "$P/share/fioscope" ] || fail "grammars/templates are compiled in, not installed"
[ "$(find "$P/include" -type f | wc -l)" = 1 ] || fail "only the API header is public: $(find "$P/include" -type f)"
"$P/bin/fioscope" --version | grep -q "^fioscope " || fail "installed binary"

# the shared library: versioned soname, only the API exported
so=$(readlink -f "$P/lib/libfioscope.so")
readelf -d "$so" | grep -q 'SONAME.*\[libfioscope\.so\.0\]' || fail "soname: $(readelf -d "$so" | grep SONAME)"
nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRW]$/ {print $3}' | sed 's/@.*//' > exports.txt
[ -s exports.txt ] || fail "nothing exported"
if grep -v '^fioscope_' exports.txt; then fail "exported beyond the API (above)"; fi
grep -qx fioscope_parse_path exports.txt || fail "API not exported"
# every function of the header is exported
grep -o 'fioscope_[a-z_]*(' "$P/include/fioscope/fioscope.h" | tr -d '(' | sort -u > declared.txt
sort -u exports.txt | comm -23 declared.txt - > missing.txt
[ ! -s missing.txt ] || fail "declared but not exported: $(cat missing.txt)"

# man page: renders, every command and every option of every command is in it
MANWIDTH=100 man -l "$P/share/man/man1/fioscope.1" > man.txt 2> man.err || fail "man -l: $(cat man.err)"
[ ! -s man.err ] || fail "man -l warnings: $(cat man.err)"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS "EXIT STATUS" EXAMPLES; do
    grep -q "^$s" man.txt || fail "man page lacks $s"
done
cmds=$("$FIOSCOPE" --help | sed -n '/^commands:/,/^$/p' | awk 'NF && $1 != "commands:" && $1 != "help" {print $1}')
for c in $cmds; do
    grep -q "^   fioscope $c\$" man.txt || fail "man page lacks the command $c"
    for o in $("$FIOSCOPE" "$c" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z0-9][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+'); do
        grep -q -- "$o" man.txt || fail "man page lacks $c $o"
    done
done
grep -q "fioscope compare --fail-on=regression:5" man.txt || fail "examples"

# bash loads the completion and completes
complete_bash() { # words... (the last one is completed)
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _fioscope; printf "%s\n" "${COMPREPLY[@]}"' \
        _ "$P/share/bash-completion/completions/fioscope" "$@"
}
bash -c 'source "$1" && complete -p fioscope' _ "$P/share/bash-completion/completions/fioscope" | grep -q _fioscope ||
    fail "bash does not load the completion"
complete_bash fioscope ta | grep -qx table || fail "bash: command"
complete_bash fioscope metr | grep -qx metrics || fail "bash: metrics command"
complete_bash fioscope compare --fail | grep -qx -- --fail-on || fail "bash: option"
complete_bash fioscope table -m iops,clat.p9 | grep -qx "iops,clat.p99" || fail "bash: metric list"
complete_bash fioscope table --metrics read.clat_ns.p9 | grep -qx "read.clat_ns.p99" || fail "bash: metric"
complete_bash fioscope table -m syst | grep -qx system || fail "bash: dimension"
complete_bash fioscope parse --format c | grep -qx csv || fail "bash: format value"
complete_bash fioscope help com | grep -qx compare || fail "bash: help COMMAND"
# zsh and fish read theirs
if command -v zsh > /dev/null; then
    zsh -n "$P/share/zsh/site-functions/_fioscope" || fail "zsh completion syntax"
fi
if command -v fish > /dev/null; then
    fish -n "$P/share/fish/vendor_completions.d/fioscope.fish" || fail "fish completion syntax"
    fish -c "source '$P/share/fish/vendor_completions.d/fioscope.fish'; complete -C'fioscope table -m clat.p9'" |
        grep -qx clat.p99 || fail "fish: metric names"
    fish -c "source '$P/share/fish/vendor_completions.d/fioscope.fish'; complete -C'fioscope compa'" |
        grep -q '^compare' || fail "fish: commands"
fi

# a C program: the example of the header itself, built with pkg-config
export PKG_CONFIG_PATH=$P/lib/pkgconfig
pkg-config --exists fioscope || fail "pkg-config does not find fioscope"
[ "$(pkg-config --modversion fioscope)" = "$("$P/bin/fioscope" --version | cut -d' ' -f2)" ] || fail "pc version"
sed -n '/@code/,/@endcode/p' "$P/include/fioscope/fioscope.h" | sed '1d;$d' | sed 's/^ \* \{0,4\}//; s/^ \*$//' > prog.c
grep -q "int main" prog.c || fail "no example in the header"
cc -std=c11 -Wall -Wextra -Werror -o prog prog.c $(pkg-config --cflags --libs fioscope) -Wl,-rpath,"$P/lib" ||
    fail "the header's example does not build against the installed library"
./prog "$S" > out.txt || fail "prog: exit $?"
grep -q "c_randrw70_libaio_4jobs_group.txt#1 mixed 36500" out.txt || fail "prog output: $(cat out.txt)"
ldd ./prog | grep -q "$P/lib/libfioscope.so.0" || fail "prog is not linked to the installed shared library"
./prog /nonexistent > out.txt 2> err.txt || true
grep -qx "/nonexistent: cannot open: No such file or directory" err.txt || fail "prog error: $(cat err.txt)"
# ... and against the static library (libarchive is opened on first use: not linked)
cc -std=c11 -o prog-static prog.c -I"$P/include" "$P/lib/libfioscope.a" \
    $(pkg-config --libs libpcre2-8 libcjson zlib) -lpthread -lm || fail "static link"
./prog-static "$S" | grep -q "mixed 36500" || fail "static prog"
ldd ./prog-static | grep -q libfioscope && fail "static prog uses the shared library"

# python3 imports the module from the prefix and finds the library by itself
PYTHONPATH=$P/lib/python3/dist-packages PYTHONDONTWRITEBYTECODE=1 FIOSCOPE_LIBRARY= \
    /usr/bin/python3 -c 'import fioscope, sys
runs = fioscope.parse(sys.argv[1])
assert runs[0]["jobs"][0]["read"]["iops"] == 36500, runs
print(fioscope.__file__)' "$S" > py.txt || fail "python3 -c 'import fioscope' from the prefix"
grep -q "^$P/lib/python3/dist-packages/fioscope/__init__.py$" py.txt || fail "imported from elsewhere: $(cat py.txt)"

# make install: the same files under PREFIX. It is told whether the build under test
# was made with profiles, so that it reconfigures nothing and relinks no program that
# other tests are running beside it.
pgo=0
grep -q '^FIOSCOPE_PGO_USE:PATH=.' "$FSC_BUILD_DIR/CMakeCache.txt" && pgo=1
make -s -C "$FSC_SOURCE_DIR" install BUILD="$FSC_BUILD_DIR" PGO=$pgo PREFIX="$T/p2" > make.log 2>&1 ||
    fail "make install: $(tail -5 make.log)"
(cd "$P" && find . -type f -o -type l | sort) > a.txt
(cd "$T/p2" && find . -type f -o -type l | sort) > b.txt
diff a.txt b.txt || fail "make install and cmake --install differ"
echo "install: all passed"
