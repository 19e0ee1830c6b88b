# SPDX-License-Identifier: MIT
"""fioscope: read fio benchmark output of every version and format from Python.

A binding (ctypes) to libfioscope, the library behind the ``fioscope`` command::

    import fioscope
    runs = fioscope.parse("results/")           # file, directory, archive, or bytes
    df = fioscope.to_dataframe(runs)            # pandas: one row per job and direction
    df[["id", "jobname", "dir", "iops", "clat_ns.percentile.99.000000"]]

``parse`` returns the runs of ``fioscope parse`` (each a dict: id, source, label,
context, jobs, groups, disk_util, warnings) with fio's own JSON names and base units.
``to_dataframe`` flattens them the way ``fioscope parse --format csv`` does: one row
per job and direction, dotted column names, the same units.

The module is safe to use from several threads and in Dask workers: libfioscope has
no mutable global state, and ctypes releases the GIL while it parses, so threads
parse in parallel.
"""

import ctypes
import json
import os
import warnings

__all__ = ["parse", "parse_document", "to_dataframe", "flatten", "FioscopeError",
           "version", "DIRECTIONS"]

DIRECTIONS = ("read", "write", "trim", "sync", "mixed")

LABEL_FROM = {"heading": 0, "file": 1, "job": 2, "context": 3}
_ALL_CORES = 1 << 4


class FioscopeError(Exception):
    """An input could not be read or held no fio run; the message says which and why."""


def _library_candidates():
    env = os.environ.get("FIOSCOPE_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        from . import _config  # written at install time: where libfioscope went
        yield os.path.normpath(os.path.join(here, _config.LIBRARY))
    except ImportError:
        pass
    yield "libfioscope.so.0"


def _load():
    errors = []
    for cand in _library_candidates():
        try:
            return ctypes.CDLL(cand)
        except OSError as e:
            errors.append("%s: %s" % (cand, e))
    raise ImportError("fioscope: cannot load libfioscope (" + "; ".join(errors) +
                      "); set FIOSCOPE_LIBRARY to its path")


_lib = _load()
_res = ctypes.c_void_p
_lib.fioscope_version.restype = ctypes.c_char_p
_lib.fioscope_version.argtypes = []
_lib.fioscope_parse_path.restype = _res
_lib.fioscope_parse_path.argtypes = [ctypes.c_char_p, ctypes.c_uint]
_lib.fioscope_parse_buffer.restype = _res
_lib.fioscope_parse_buffer.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p,
                                       ctypes.c_uint]
_lib.fioscope_result_status.restype = ctypes.c_int
_lib.fioscope_result_status.argtypes = [_res]
_lib.fioscope_result_error.restype = ctypes.c_char_p
_lib.fioscope_result_error.argtypes = [_res]
_lib.fioscope_result_run_count.restype = ctypes.c_size_t
_lib.fioscope_result_run_count.argtypes = [_res]
_lib.fioscope_result_json.restype = ctypes.c_void_p  # freed with fioscope_free
_lib.fioscope_result_json.argtypes = [_res, ctypes.c_uint, ctypes.POINTER(ctypes.c_size_t)]
_lib.fioscope_result_free.restype = None
_lib.fioscope_result_free.argtypes = [_res]
_lib.fioscope_free.restype = None
_lib.fioscope_free.argtypes = [ctypes.c_void_p]


def version():
    """The version of libfioscope ("0.1.0")."""
    return _lib.fioscope_version().decode()


def _flags(label_from, all_cores):
    if label_from not in LABEL_FROM:
        raise ValueError("label_from must be one of %s, not %r" % (", ".join(LABEL_FROM), label_from))
    return LABEL_FROM[label_from] | (_ALL_CORES if all_cores else 0)


def _read(source, name, label_from, all_cores):
    """(document, status, first problem) of one parse call."""
    flags = _flags(label_from, all_cores)
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        res = _lib.fioscope_parse_buffer(data, len(data),
                                         os.fsencode(name) if name is not None else b"-", flags)
    elif isinstance(source, (str, os.PathLike)):
        res = _lib.fioscope_parse_path(os.fsencode(source), flags)
    else:
        raise TypeError("fioscope.parse takes a path (str, os.PathLike) or bytes, not %s"
                        % type(source).__name__)
    if not res:
        raise MemoryError("fioscope: out of memory")
    try:
        n = ctypes.c_size_t(0)
        text = _lib.fioscope_result_json(res, 0, ctypes.byref(n))
        if not text:
            raise MemoryError("fioscope: out of memory")
        try:
            doc = json.loads(ctypes.string_at(text, n.value).decode("utf-8"))
        finally:
            _lib.fioscope_free(text)
        err = _lib.fioscope_result_error(res)
        return doc, _lib.fioscope_result_status(res), err.decode("utf-8", "replace") if err else None
    finally:
        _lib.fioscope_result_free(res)


def parse_document(source, name=None, label_from="heading", all_cores=False):
    """The whole normalized document of ``fioscope parse``: a dict with "fioscope",
    "inputs" (one entry per file read, with its status: ok, no-runs, error) and
    "runs". Never raises for bad input: look at "inputs"."""
    return _read(source, name, label_from, all_cores)[0]


def parse(source, name=None, label_from="heading", all_cores=False, strict=False):
    """Every fio run in source, as a list of dicts (the RUN objects of the contract).

    source: a path (file, directory searched recursively, archive, "-") or the
    bytes of a document or archive (name: the path the runs then carry).

    Raises FioscopeError with the reason when nothing could be read or no run was
    found ("x.txt: no fio run found", "missing.log: cannot open: No such file or
    directory"). When some inputs gave runs and others failed, the runs are returned
    and a warning names the first problem; strict=True raises instead. Files without
    runs that a directory walk or an archive turns up (a README beside the logs) are
    no problem, as on the command line.
    """
    doc, status, err = _read(source, name, label_from, all_cores)
    if status != 0:
        if not doc["runs"] or strict:
            raise FioscopeError(err)
        warnings.warn("fioscope: " + err, stacklevel=2)
    return doc["runs"]


def _flat(prefix, obj, out):
    """obj's numbers and strings under dotted names; lists and json+ bins are left out."""
    for k, v in obj.items():
        key = prefix + k
        if isinstance(v, dict):
            if k != "bins":
                _flat(key + ".", v, out)
        elif not isinstance(v, list):
            out[key] = v


def _has_data(d):
    """Does a direction carry any non-zero number? (fio prints unused ones as zeros.)"""
    for k, v in d.items():
        if isinstance(v, dict):
            if k != "bins" and _has_data(v):
                return True
        elif isinstance(v, (int, float)) and not isinstance(v, bool) and v != 0:
            return True
    return False


def flatten(runs):
    """Rows (dicts) of runs, one per job and direction, exactly as the columns of
    ``fioscope parse --format csv``: id, label, source.*, jobname and the job's
    numbers, dir, then the direction's numbers without its prefix
    ("iops", "bw_bytes", "clat_ns.percentile.99.000000")."""
    rows = []
    for run in runs:
        base = {"id": run.get("id"), "label": run.get("label")}
        _flat("source.", run.get("source") or {}, base)
        for job in run.get("jobs", []):
            common = {}
            _flat("", {k: v for k, v in job.items() if k not in DIRECTIONS}, common)
            dirs = [d for d in DIRECTIONS if isinstance(job.get(d), dict) and _has_data(job[d])]
            if not dirs:
                rows.append({**base, **common, "dir": None})
            for d in dirs:
                row = {**base, **common, "dir": d}
                _flat("", job[d], row)
                rows.append(row)
    return rows


def to_dataframe(runs):
    """A pandas DataFrame of runs (from parse), one row per job and direction."""
    import pandas as pd
    rows = flatten(runs)
    columns = []
    seen = set()
    for r in rows:
        for k in r:
            if k not in seen:
                seen.add(k)
                columns.append(k)
    return pd.DataFrame(rows, columns=columns)
