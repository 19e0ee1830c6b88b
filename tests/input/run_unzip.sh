#!/usr/bin/env bash
# zip members inflated by ISA-L (src/input/unzip.h) against libarchive's own zip
# reader (FIOSCOPE_NO_ISAL=1): the same JSON Lines and messages, byte for byte, for
# good zips (levels, stored and mixed members, empty members, data descriptors,
# zip64 headers, duplicate names, comments, directories), zips inside tar and zip
# archives, and damaged ones (bytes flipped in the data, in CRCs and sizes of the
# local header and of the directory, cuts, bytes before and after the archive).
# Which members ISA-L takes is tested in tests/unit/test_unzip.c.
source "$(dirname "$0")/lib.sh"

C=$FSC_CORPUS/fio-3.33
python3 -W ignore - "$C" <<'PY'
import io, os, random, struct, sys, tarfile, zipfile, zlib

corpus = sys.argv[1]
docs = [(n, open(os.path.join(corpus, n), "rb").read()) for n in sorted(os.listdir(corpus)) if n.endswith(".txt")]

def make(name, members, compression=zipfile.ZIP_DEFLATED, level=None, comment=b"", zip64=False, stream=False):
    raw = io.BytesIO()
    class Unseekable(io.RawIOBase):  # zipfile then writes data descriptors
        def writable(self): return True
        def write(self, b): return raw.write(b)
    target = Unseekable() if stream else raw
    with zipfile.ZipFile(target, "w", compression, compresslevel=level) as z:
        for n, d in members:
            if n.endswith("/"):
                z.writestr(n, b"")
                continue
            info = zipfile.ZipInfo(n)
            info.compress_type = compression
            info._compresslevel = level  # compress_level from Python 3.13
            with z.open(info, "w", force_zip64=zip64) as f:
                f.write(d)
        z.comment = comment
    data = raw.getvalue()
    if name:
        open(name, "wb").write(data)
    return data

def put(name, data):
    open(name, "wb").write(data)

rnd = random.Random(16)
logs = [("logs/" + n, d) for n, d in docs]
good = make("good.zip", logs)
make("level1.zip", logs, level=1)
make("level9.zip", logs, level=9)
make("stored.zip", logs, compression=zipfile.ZIP_STORED)
make("stream.zip", logs, stream=True)
make("zip64.zip", logs[:5], zip64=True)
make("comment.zip", logs[:5], comment=b"a comment after the directory")
make("dirs.zip", [("logs/", b""), ("logs/sub/", b"")] + logs[:4] + [("logs/empty.txt", b"")])
make("dups.zip", logs[:3] + logs[:3])
make("unicode.zip", [("logs/d\u00e9j\u00e0 vu \u65e5\u672c.txt", docs[0][1])])
# mixed: some stored, some deflated
raw = io.BytesIO()
with zipfile.ZipFile(raw, "w") as z:
    for i, (n, d) in enumerate(logs):
        z.writestr(n, d, zipfile.ZIP_STORED if i % 3 == 0 else zipfile.ZIP_DEFLATED)
put("mixed.zip", raw.getvalue())
# a bigger member (several MB, digits varied) and a very compressible one
big = b"".join(bytes(48 + rnd.randrange(10) if 48 <= c <= 57 else c for c in d) for _, d in docs * 6)
make("big.zip", [("big.txt", big)] + logs[:2])
make("flat.zip", [("flat.txt", (docs[0][1] * 4000)[:8 << 20])] + logs[:2])
# expansion limits: a bomb (zeros, about 1000:1), and a member between a quarter of
# --max-ratio (ISA-L's bound) and the whole of it
make("bomb.zip", [("zeros.txt", bytes(50 << 20))] + logs[:2])
# a member whose compressed bytes (17 MB: noise) are more than unzip.c keeps a buffer for
make("large.zip", logs[:2] + [("noise.bin", rnd.randbytes(17 << 20))] + logs[2:4], level=1)
make("steep.zip", [("steep.txt", docs[0][1] * 500 + bytes(6 << 20))] + logs[:2])
# archives inside archives
inner = make(None, logs[:6])
with tarfile.open("zip_in.tar", "w") as t:
    info = tarfile.TarInfo("in/logs.zip"); info.size = len(inner); t.addfile(info, io.BytesIO(inner))
make("zip_in.zip", [("in/logs.zip", inner)] + logs[:2], compression=zipfile.ZIP_STORED)
make("zip_in_deflated.zip", [("in/logs.zip", inner)] + logs[:2])
# damage
def flip(data, at, bit=0x10):
    b = bytearray(data)
    b[at] ^= bit
    return bytes(b)
cd = good.rindex(b"PK\x01\x02")               # the last directory entry
first_cd = good.index(b"PK\x01\x02")
lh2 = good.index(b"PK\x03\x04", 10)            # the second member's local header
for k in range(30):
    at = rnd.randrange(40, first_cd)
    put("flip%07d.zip" % at, flip(good, at, 1 << rnd.randrange(8)))
put("cd_crc.zip", flip(good, first_cd + 16))
put("cd_csize.zip", flip(good, first_cd + 20, 1))
put("cd_usize.zip", flip(good, first_cd + 24, 1))
put("cd_method.zip", flip(good, first_cd + 10, 1))
put("cd_flags.zip", flip(good, first_cd + 8, 1))
put("cd_name.zip", flip(good, first_cd + 46, 1))
put("cd_offset.zip", flip(good, first_cd + 42, 1))
put("lh_crc.zip", flip(good, lh2 + 14))
put("lh_csize.zip", flip(good, lh2 + 18, 1))
put("lh_usize.zip", flip(good, lh2 + 22, 1))
put("lh_flags.zip", flip(good, lh2 + 6, 8))
put("lh_name.zip", flip(good, lh2 + 30, 1))
put("lh_extra.zip", good[:lh2 + 28] + b"\x04\x00" + good[lh2 + 30:])
put("eocd_count.zip", flip(good, len(good) - 12, 1))
put("eocd_offset.zip", flip(good, len(good) - 6, 1))
put("prefixed.zip", b"#!/bin/sh\nexit 0\n" * 10 + good)
put("suffixed.zip", good + b"trailing junk\n")
for c in sorted({len(good) - 1, len(good) - 22, first_cd, first_cd - 7, lh2 + 40, len(good) // 2}):
    put("cut%07d.zip" % c, good[:c])
stream = open("stream.zip", "rb").read()
dd = stream.index(b"PK\x07\x08")
put("dd_crc.zip", flip(stream, dd + 4))
put("dd_size.zip", flip(stream, dd + 12, 1))
put("dd_gone.zip", stream[:dd] + b"\0\0\0\0" + stream[dd + 4:])
PY
inputs=(*.zip zip_in.tar)
[ "${#inputs[@]}" -ge 70 ] || fail "only ${#inputs[@]} inputs were made"
for f in "${inputs[@]}"; do
    for j in 1 2; do
        rc_a=0 rc_b=0
        FIOSCOPE_NO_ISAL=1 "$FIOSCOPE" parse --jsonl -j $j --fail-on=none "$f" > a.jsonl 2> a.err || rc_a=$?
        "$FIOSCOPE" parse --jsonl -j $j --fail-on=none "$f" > b.jsonl 2> b.err || rc_b=$?
        [ "$rc_a" = "$rc_b" ] || fail "$f: exit $rc_b with ISA-L, $rc_a with libarchive's zip reader"
        cmp -s a.jsonl b.jsonl || { diff <(manifest < a.jsonl) <(manifest < b.jsonl) >&2 || true
                                    fail "$f: ISA-L's output differs from libarchive's"; }
        cmp -s a.err b.err || { diff a.err b.err >&2 || true; fail "$f: ISA-L's messages differ"; }
    done
done
# the expansion limits stop the same member either way (ISA-L takes members only
# under a quarter of --max-ratio, and counts their compressed bytes as read)
for f in good.zip big.zip level9.zip steep.zip; do
    for r in 2 3 4 6 8 20 300; do
        FIOSCOPE_NO_ISAL=1 "$FIOSCOPE" parse --jsonl -q --fail-on=none --max-ratio $r "$f" > a.jsonl 2>&1
        "$FIOSCOPE" parse --jsonl -q --fail-on=none --max-ratio $r "$f" > b.jsonl 2>&1
        cmp -s a.jsonl b.jsonl || fail "$f, --max-ratio $r: ISA-L's output differs from libarchive's"
    done
done
# a good archive reads whole: every log a member with its runs
n_docs=$(ls "$C"/*.txt | wc -l)
manifest < <("$FIOSCOPE" parse --jsonl -q good.zip) | grep -c '|ok|' > ok.txt
[ "$(cat ok.txt)" = "$n_docs" ] || fail "good.zip: $(cat ok.txt) members ok, not $n_docs"
echo "unzip: ${#inputs[@]} zip inputs read alike by ISA-L and libarchive"
