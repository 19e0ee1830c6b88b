#!/usr/bin/env bash
# gzip by ISA-L (src/input/gunzip.h) against libarchive's own gzip filter
# (FIOSCOPE_NO_ISAL=1): the same JSON Lines, byte for byte, for good and damaged
# gzip files and tar.gz archives - several members, trailing bytes, header fields,
# truncations at every kind of place, bytes flipped in the deflate data, in the
# trailer and in the header, gzip of nothing, .gz and .tar.gz inside archives, and a
# pipe. (Damage can
# be found at another point by the two decoders - gunzip.h; for these inputs, made
# from a fixed seed, it is not. fuzz_gunzip checks what holds for any damage.)
source "$(dirname "$0")/lib.sh"

C=$FSC_CORPUS/fio-3.33
ls "$C"/*.txt > list.txt
n_docs=$(wc -l < list.txt)
mkdir -p t/logs && xargs -a list.txt cp -t t/logs
cp "$C/g_json.json" one.json
tar cf t.tar t
python3 - <<'PY'
import gzip, io, os, random, struct, tarfile, zlib

def member(data, level=6, flags=0, name=b"", comment=b"", extra=b""):
    """One gzip member with the optional header fields asked for."""
    co = zlib.compressobj(level, zlib.DEFLATED, -15)
    body = co.compress(data) + co.flush()
    fl = (4 if extra else 0) | (8 if name else 0) | (16 if comment else 0) | flags
    h = b"\x1f\x8b\x08" + bytes([fl]) + b"\0\0\0\0\0\xff"
    if extra:
        h += struct.pack("<H", len(extra)) + extra
    if name:
        h += name + b"\0"
    if comment:
        h += comment + b"\0"
    if fl & 2:
        h += struct.pack("<H", zlib.crc32(h) & 0xffff)
    return h + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xffffffff)

def put(name, data):
    open(name, "wb").write(data)

tar = open("t.tar", "rb").read()
one = open("one.json", "rb").read()
tgz = member(tar)
put("good.tar.gz", tgz)
put("fields.tar.gz", member(tar, 9, 2, b"t.tar", b"a comment", b"AB\x04\x00data"))
put("level1.tar.gz", member(tar, 1))
put("stored.tar.gz", member(tar, 0))
half = len(tar) // 2 // 512 * 512
put("members.tar.gz", member(tar[:half]) + member(tar[half:]))     # one tar, two members
put("many.json.gz", b"".join(member(one[i:i + 700]) for i in range(0, len(one), 700)))
put("tail.tar.gz", tgz + b"not gzip at all\n" * 10)                  # trailing bytes
put("tailmagic.tar.gz", tgz + b"\x1f\x8b\x08\x00")                   # a header cut short
put("nothing.gz", member(b""))
put("nothing2.gz", member(b"") + member(b""))
put("json.gz", member(one))
put("nested.tar.gz", member(open("t.tar", "rb").read()))
with tarfile.open("outer.tar", "w") as t:
    t.add("good.tar.gz", "inner/good.tar.gz")
put("outer.tar.gz", member(open("outer.tar", "rb").read()))
# gzip files inside a plain tar (logs compressed one by one): good, cut, flipped
gzs = {"a.json.gz": member(one), "b.tar.gz": tgz, "cut.json.gz": member(one)[:300],
       "flip.tar.gz": tgz[:200] + bytes([tgz[200] ^ 0x55]) + tgz[201:], "many.json.gz": member(one[:500]) + member(one[500:])}
with tarfile.open("inner.tar", "w") as t:
    for name, data in gzs.items():
        info = tarfile.TarInfo("logs/" + name)
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
put("inner.tar.gz", member(open("inner.tar", "rb").read()))
rnd = random.Random(7)
n = len(tgz)
cuts = sorted({1, 2, 5, 9, 10, 11, 20, n - 9, n - 8, n - 7, n - 4, n - 1} |
              {rnd.randrange(12, n - 8) for _ in range(8)})
for c in cuts:
    put("cut%06d.tar.gz" % c, tgz[:c])
for k in range(40):
    at = rnd.randrange(12, n - 8)
    b = bytearray(tgz)
    b[at] ^= 1 << rnd.randrange(8)
    put("flip%06d.tar.gz" % at, bytes(b))
for at in (n - 8, n - 5, n - 1, 3, 9):                                 # trailer, header
    b = bytearray(tgz)
    b[at] ^= 0x10
    put("hdr%06d.tar.gz" % at, bytes(b))
b = bytearray(member(one))
b[len(b) // 2] ^= 0xff
put("flip.json.gz", bytes(b))
# a bigger one (3 MB of text, its digits varied: about 1 MB compressed), so that the
# decoder reads its input in many blocks: cut and flipped in the middle as well
docs = [open(p.strip(), "rb").read() for p in open("list.txt")]
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as t:
    for k in range(30):
        for i, d in enumerate(docs):
            d = bytes(48 + rnd.randrange(10) if 48 <= c <= 57 else c for c in d)
            info = tarfile.TarInfo("big/%02d/%02d.txt" % (k, i))
            info.size = len(d)
            t.addfile(info, io.BytesIO(d))
big = member(buf.getvalue())
put("big.tar.gz", big)
for c in sorted(rnd.randrange(len(big) // 4, len(big)) for _ in range(4)):
    put("bigcut%07d.tar.gz" % c, big[:c])
for _ in range(4):
    at = rnd.randrange(len(big) // 4, len(big) - 8)
    b = bytearray(big)
    b[at] ^= 1 << rnd.randrange(8)
    put("bigflip%07d.tar.gz" % at, bytes(b))
PY

inputs=(*.gz inner.tar)
[ "${#inputs[@]}" -ge 70 ] || fail "only ${#inputs[@]} inputs were made"
for f in "${inputs[@]}"; do
    rc_a=0 rc_b=0
    FIOSCOPE_NO_ISAL=1 "$FIOSCOPE" parse --jsonl -q -j 2 --fail-on=none "$f" > a.jsonl 2> a.err || rc_a=$?
    "$FIOSCOPE" parse --jsonl -q -j 2 --fail-on=none "$f" > b.jsonl 2> b.err || rc_b=$?
    [ "$rc_a" = "$rc_b" ] || fail "$f: exit $rc_b with ISA-L, $rc_a with libarchive's gzip"
    cmp -s a.jsonl b.jsonl || { diff <(manifest < a.jsonl) <(manifest < b.jsonl) >&2 || true
                                fail "$f: ISA-L's output differs from libarchive's"; }
done
# the same through a pipe (no seeking), and a good archive reads whole
FIOSCOPE_NO_ISAL=1 "$FIOSCOPE" parse --jsonl -q - < members.tar.gz > a.jsonl
"$FIOSCOPE" parse --jsonl -q - < members.tar.gz > b.jsonl
cmp -s a.jsonl b.jsonl || fail "a pipe: ISA-L's output differs from libarchive's"
manifest < b.jsonl | grep -c '|ok|' > ok.txt
[ "$(cat ok.txt)" = "$n_docs" ] || fail "members.tar.gz from a pipe: $(cat ok.txt) members ok, not $n_docs"
manifest < <("$FIOSCOPE" parse --jsonl -q fields.tar.gz) | grep -c '|ok|' > ok.txt
[ "$(cat ok.txt)" = "$n_docs" ] || fail "fields.tar.gz: $(cat ok.txt) members ok, not $n_docs"
echo "gunzip: ${#inputs[@]} gzip inputs read alike by ISA-L and libarchive"
