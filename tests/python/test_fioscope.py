# SPDX-License-Identifier: MIT
"""The Python module fioscope against the command line it mirrors: the same runs,
the same flat table, errors as exceptions with their message, threads, no leaks."""
import csv
import io
import json
import math
import os
import subprocess
import tarfile
import threading
import unittest
import warnings

import fioscope

FIOSCOPE = os.environ["FIOSCOPE"]
CORPUS = os.environ["FSC_CORPUS"]


def cli(*args):
    return subprocess.run([FIOSCOPE, *args], check=False, capture_output=True).stdout


def rss_kib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Parse(unittest.TestCase):
    def test_version(self):
        self.assertEqual("fioscope " + fioscope.version(), cli("--version").decode().strip())

    def test_document_equals_cli(self):
        for sub in ("fio-3.33", "fio-2.0.15", "wild"):
            path = os.path.join(CORPUS, sub)
            want = json.loads(cli("parse", "-q", "--fail-on=none", path))
            got = fioscope.parse_document(path)
            self.assertEqual(got, want, sub)
            self.assertEqual(fioscope.parse(path), want["runs"])

    def test_bytes_and_archives(self):
        path = os.path.join(CORPUS, "fio-3.33", "a_randread_psync.txt")
        data = open(path, "rb").read()
        runs = fioscope.parse(data, name="pasted.txt", label_from="job")
        self.assertEqual(len(runs), 1)
        self.assertEqual(runs[0]["id"], "pasted.txt#1")
        self.assertEqual(runs[0]["label"], "randread")
        self.assertEqual(runs[0]["jobs"][0]["read"]["iops"], 10900)
        # a tar.gz in memory: members read in place, ids name them
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:gz") as t:
            t.add(path, arcname="logs/a.txt")
            t.add(os.path.join(CORPUS, "fio-3.33", "g_json_nogroup.json"), arcname="logs/b.json")
            info = tarfile.TarInfo("logs/README")
            info.size = 6
            t.addfile(info, io.BytesIO(b"notes\n"))
        runs = fioscope.parse(buf.getvalue(), name="logs.tgz")
        self.assertEqual([r["id"] for r in runs], ["logs.tgz:logs/a.txt#1", "logs.tgz:logs/b.json#1"])
        doc = fioscope.parse_document(buf.getvalue(), name="logs.tgz")
        self.assertEqual([i["status"] for i in doc["inputs"]], ["ok", "ok", "no-runs"])
        self.assertEqual(fioscope.parse(bytearray(data))[0]["id"], "-#1")

    def test_errors(self):
        with self.assertRaises(fioscope.FioscopeError) as e:
            fioscope.parse("/nonexistent/fio.log")
        self.assertEqual(str(e.exception), "/nonexistent/fio.log: cannot open: No such file or directory")
        with self.assertRaises(fioscope.FioscopeError) as e:
            fioscope.parse(b"this is not fio output\n")
        self.assertEqual(str(e.exception), "-: no fio run found")
        with self.assertRaises(fioscope.FioscopeError) as e:
            fioscope.parse(b"\x00\x01\x02\xff\xfe\x00" * 10, name="blob.bin")
        self.assertTrue(str(e.exception).startswith("blob.bin: "), str(e.exception))
        with self.assertRaises(TypeError):
            fioscope.parse(42)
        with self.assertRaises(ValueError):
            fioscope.parse(b"x", label_from="nope")
        # a folder of logs with a .cmd and a README: no warning, no error
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            self.assertTrue(fioscope.parse(os.path.join(CORPUS, "fio-3.13")))

    def test_partial_failure(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            os.symlink(os.path.join(CORPUS, "fio-3.33", "a_randread_psync.txt"), os.path.join(d, "a.txt"))
            os.symlink("/nonexistent", os.path.join(d, "b.txt"))  # an entry that fails
            with self.assertWarns(UserWarning) as w:
                runs = fioscope.parse(d)
            self.assertEqual(len(runs), 1)
            self.assertIn("b.txt: cannot open: dangling symbolic link", str(w.warning))
            with self.assertRaises(fioscope.FioscopeError):
                fioscope.parse(d, strict=True)

    def test_no_leak_on_bad_input(self):
        good = os.path.join(CORPUS, "fio-3.33", "a_randread_psync.txt")
        for _ in range(50):  # warm up allocator and caches
            fioscope.parse(good)
            try:
                fioscope.parse("/nonexistent")
            except fioscope.FioscopeError:
                pass
        before = rss_kib()
        for _ in range(1500):
            for bad in ("/nonexistent", b"not fio", b"\x00\xff" * 64):
                try:
                    fioscope.parse(bad)
                except fioscope.FioscopeError:
                    pass
            fioscope.parse(good)
        grown = rss_kib() - before
        self.assertLess(grown, 4096, "RSS grew by %d KiB over 6000 calls" % grown)


class Threads(unittest.TestCase):
    def test_threads_same_as_one(self):
        paths = [os.path.join(CORPUS, s) for s in ("fio-3.33", "fio-2.1.10", "wild", "damaged")]
        alone = {p: fioscope.parse_document(p) for p in paths}
        results, errors = {}, []

        def work(i, p):
            try:
                results[i] = (p, fioscope.parse_document(p))
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

        threads = [threading.Thread(target=work, args=(i, paths[i % len(paths)])) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        self.assertEqual(len(results), 8)
        for p, doc in results.values():
            self.assertEqual(doc, alone[p])


def cells_equal(a, b):
    """A csv cell (text) and a DataFrame cell (number, text or NaN)."""
    if b is None or (isinstance(b, float) and math.isnan(b)):
        return a == ""
    if isinstance(b, (int, float)) and not isinstance(b, bool):
        return a != "" and float(a) == float(b)
    return a == str(b)


class DataFrame(unittest.TestCase):
    def test_same_as_parse_csv(self):
        for sub in ("fio-3.33", "fio-2.15", "wild"):
            path = os.path.join(CORPUS, sub)
            df = fioscope.to_dataframe(fioscope.parse_document(path)["runs"])
            rows = list(csv.reader(io.StringIO(cli("parse", "-q", "-f", "csv", path).decode())))
            head, body = rows[0], rows[1:]
            self.assertEqual(list(df.columns), head, sub)
            self.assertEqual(len(df), len(body), sub)
            values = df.astype(object).values.tolist()
            for i, row in enumerate(body):
                for k, name in enumerate(head):
                    got = values[i][k]
                    if not cells_equal(row[k], got):
                        # the csv guards text cells against formulas with a leading '
                        self.assertTrue(row[k].lstrip("'") == str(got), (sub, i, name, row[k], got))

    def test_rows(self):
        runs = fioscope.parse(os.path.join(CORPUS, "fio-3.33", "c_randrw70_libaio_4jobs_group.txt"))
        df = fioscope.to_dataframe(runs)
        self.assertEqual(list(df["dir"]), ["read", "write"])
        self.assertEqual(list(df["iops"]), [36500, 15800])
        self.assertEqual(df["bw"][0], 145408)            # KiB/s, as in the JSON
        self.assertEqual(df["bw_bytes"][0], 148897792)    # bytes/s
        self.assertEqual(df["clat_ns.percentile.99.000000"][1], 5800000)
        self.assertEqual(df["job options.rw"][0], "randrw")
        self.assertEqual(fioscope.to_dataframe([]).shape, (0, 0))


if __name__ == "__main__":
    unittest.main(verbosity=1)
