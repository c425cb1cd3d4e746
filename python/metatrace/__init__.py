"""metatrace: read mtemu's traces (.mtr, .mtp, zstd streams) from Python.

    import metatrace
    t = metatrace.open("seq.mtr")
    t.header                # dict: container, ref_hz, has_index, unit.*, producer, ...
    for chunk in t.chunks():   # numpy structured arrays, in stream order
        chunk["address"], chunk["cycle"], chunk["write"], chunk["section"]

The samples are decoded by the installed libmetatrace (ctypes over mt_reader.h): the same
decoder as `metatrace decode`, so the same samples in the same order. A file that cannot be
read, or (by default) a packet stream with corrupt or missing bytes, raises TraceError naming
the file and the problem.
"""
import ctypes
import os

import numpy as np

__all__ = ["open", "Trace", "TraceError", "SAMPLE_DTYPE", "SECTIONS", "FORMATS", "library_path"]

#: One sample, the layout of mt_sample_rec (lib/mt_reader.h): 40 bytes.
SAMPLE_DTYPE = np.dtype([
    ("cycle", "<u8"),    # sample point, reference-clock cycles (1 GHz)
    ("address", "<u8"),  # lowest byte address of the part the format reports
    ("value", "<u8"),    # as `metatrace decode` prints it: 48/32-bit word with R/W, line number, address
    ("skip", "<u8"),     # intervals without a sample just before this one
    ("write", "u1"),     # 1 = write
    ("section", "u1"),   # 0 = burst, 1 = span (SECTIONS)
    ("format", "u1"),    # FORMATS index: 48, 32, full, line
    ("reserved", "u1", (5,)),
])
SECTIONS = ("burst", "span")
FORMATS = ("48", "32", "full", "line")


class TraceError(Exception):
    """A trace that cannot be opened or decoded; the message names the file and the problem."""


class _Stats(ctypes.Structure):
    _fields_ = [(n, ctypes.c_uint64) for n in
                ("samples", "writes", "markers", "dropped", "losses", "bytes_lost", "bad_frames",
                 "truncated")]


def library_path():
    """Where libmetatrace is: $METATRACE_LIBRARY, else the copy installed beside this package
    (make install records the relative path), else the soname through the dynamic loader."""
    env = os.environ.get("METATRACE_LIBRARY")
    if env:
        return env
    try:
        from . import _installed
    except ImportError:
        return "libmetatrace.so.1"
    here = os.path.dirname(os.path.abspath(__file__))
    candidate = os.path.normpath(os.path.join(here, _installed.LIBRARY))
    return candidate if os.path.exists(candidate) else _installed.SONAME


_lib = None


def _library():
    global _lib
    if _lib is not None:
        return _lib
    path = library_path()
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        raise TraceError(f"cannot load libmetatrace ({path}): {e}") from None
    vp = ctypes.c_void_p
    lib.mt_version.restype = ctypes.c_char_p
    lib.mt_version.argtypes = []
    lib.mt_reader_open.restype = vp
    lib.mt_reader_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t]
    lib.mt_reader_header.restype = ctypes.c_size_t
    lib.mt_reader_header.argtypes = [vp, ctypes.c_char_p, ctypes.c_size_t]
    lib.mt_reader_next.restype = ctypes.c_long
    lib.mt_reader_next.argtypes = [vp, vp, ctypes.c_size_t, ctypes.c_int]
    lib.mt_reader_get_stats.restype = None
    lib.mt_reader_get_stats.argtypes = [vp, ctypes.POINTER(_Stats)]
    lib.mt_reader_error.restype = ctypes.c_char_p
    lib.mt_reader_error.argtypes = [vp]
    lib.mt_reader_rewind.restype = ctypes.c_int
    lib.mt_reader_rewind.argtypes = [vp]
    lib.mt_reader_close.restype = None
    lib.mt_reader_close.argtypes = [vp]
    _lib = lib
    return lib


def version():
    """libmetatrace's version (the source tree's VERSION)."""
    return _library().mt_version().decode()


# Values that stay text although they may look like numbers (format names: 48, 32, full, line).
_TEXT_KEYS = {"unit.fmt_h", "unit.fmt_l"}


def _parse_header(text):
    header = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if not sep:
            continue
        value = value.strip()
        if key in _TEXT_KEYS:
            header[key] = value
        elif value.isdigit():
            header[key] = int(value)
        elif value.startswith("0x"):
            try:
                header[key] = int(value, 16)
            except ValueError:
                header[key] = value
        else:
            header[key] = value
    return header


class Trace:
    """An open trace. Use metatrace.open(); close() (or a with block) releases it."""

    def __init__(self, path, strict=True):
        self.path = os.fspath(path)
        self.strict = strict
        lib = _library()
        err = ctypes.create_string_buffer(512)
        handle = lib.mt_reader_open(os.fsencode(self.path), err, len(err))
        if not handle:
            raise TraceError(err.value.decode(errors="replace") or f"{self.path}: cannot open")
        self._h = handle
        need = lib.mt_reader_header(handle, None, 0)
        buf = ctypes.create_string_buffer(need + 1)
        lib.mt_reader_header(handle, buf, len(buf))
        #: The container header as a dict (numbers as int): container, ref_hz, has_index, frames,
        #: index_samples, unit.* (the trace unit's configuration), and the producer's key=value lines.
        self.header = _parse_header(buf.value.decode(errors="replace"))

    def _handle(self):
        if self._h is None:
            raise TraceError(f"{self.path}: trace is closed")
        return self._h

    def chunks(self, size=65536):
        """Yields the samples, size at a time (the last chunk shorter), as numpy structured
        arrays of SAMPLE_DTYPE. Each call starts again from the first sample."""
        lib, h = _library(), self._handle()
        if lib.mt_reader_rewind(h) != 0:
            raise TraceError(lib.mt_reader_error(h).decode(errors="replace"))
        while True:
            out = np.empty(size, dtype=SAMPLE_DTYPE)
            got = lib.mt_reader_next(h, out.ctypes.data, size, 1 if self.strict else 0)
            if got < 0:
                raise TraceError(lib.mt_reader_error(h).decode(errors="replace"))
            if got == 0:
                return
            yield out[:got]

    def samples(self):
        """Every sample in one array (for traces that fit in memory)."""
        parts = list(self.chunks())
        return np.concatenate(parts) if parts else np.empty(0, dtype=SAMPLE_DTYPE)

    def stats(self):
        """Counts since the last chunks() began: samples, writes, markers, dropped (by the trace
        unit), losses and bytes_lost (decoder), bad_frames, truncated."""
        st = _Stats()
        _library().mt_reader_get_stats(self._handle(), ctypes.byref(st))
        return {name: getattr(st, name) for name, _ in _Stats._fields_}

    def close(self):
        if self._h is not None:
            _library().mt_reader_close(self._h)
            self._h = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        if getattr(self, "_h", None) is not None:
            self.close()


def open(path, strict=True):  # noqa: A001 (the module's verb, as gzip.open)
    """Opens a trace. strict (default): a corrupt or incomplete packet stream raises TraceError;
    strict=False counts the losses in stats() and goes on, as `metatrace decode` does."""
    return Trace(path, strict)
