#!/usr/bin/env python3
"""Checks of the installed metatrace Python package against the metatrace tool (run by
tests/install/install.sh with PYTHONPATH at the installed copy). Prints PASS/FAIL lines.

usage: check.py METATRACE_BIN TMPDIR SAMPLED.mtr EVERY_ACCESS.mtr MRC_EXAMPLE"""
import csv
import io
import os
import re
import subprocess
import sys

tool, tmp, sampled, every, example = sys.argv[1:6]
failures = 0


def result(name, ok, why=""):
    global failures
    print(f"PASS {name}" if ok else f"FAIL {name}: {why}")
    failures += 0 if ok else 1


def run(*argv):
    return subprocess.run(argv, capture_output=True, text=True, check=False)


try:
    import metatrace
    where = os.path.abspath(metatrace.__file__)
    result("python-import", where.startswith(os.path.abspath(tmp)) and
           os.path.abspath(metatrace.library_path()).startswith(os.path.abspath(tmp)),
           f"imported {where}, library {metatrace.library_path()} (not the installed copy)")
    result("python-version", metatrace.version() == open("VERSION").read().strip(), metatrace.version())
except Exception as e:  # the rest cannot run
    result("python-import", False, repr(e))
    sys.exit(0)

SECTION = {"burst": 0, "span": 1}
FORMAT = {"48": 0, "32": 1, "full": 2, "line": 3}

for path in (sampled, every):
    name = os.path.basename(path)
    info = run(tool, "info", path).stdout
    m = re.search(r"^samples: (\d+) \((\d+) writes\)$", info, re.M)
    with metatrace.open(path) as t:
        n = w = 0
        chunk_sizes = []
        for chunk in t.chunks(size=4096):
            n += len(chunk)
            w += int(chunk["write"].sum())
            chunk_sizes.append(len(chunk))
        st = t.stats()
        result(f"python-count-{name}", m is not None and (n, w) == (int(m[1]), int(m[2])) and
               st["samples"] == n and st["losses"] == 0,
               f"python {n} samples ({w} writes), metatrace info {m and m.group(0)}")
        result(f"python-chunking-{name}", len(chunk_sizes) > 1 and all(s == 4096 for s in chunk_sizes[:-1])
               and 0 < chunk_sizes[-1] <= 4096, f"chunk sizes {chunk_sizes[:5]}...")
        # every sample, field by field, against `metatrace decode --format csv --samples-only`
        dec = run(tool, "decode", path, "--format", "csv", "--samples-only")
        rows = list(csv.DictReader(io.StringIO(dec.stdout)))
        s = t.samples()
        bad = None
        if len(rows) != len(s):
            bad = f"{len(s)} samples, decode printed {len(rows)}"
        for i, (r, x) in enumerate(zip(rows, s)):
            want = (int(r["cycle"]), int(r["address"], 16), int(r["value"], 16), r["rw"] == "W",
                    SECTION[r["section"]], FORMAT[r["format"]])
            got = (int(x["cycle"]), int(x["address"]), int(x["value"]), bool(x["write"]),
                   int(x["section"]), int(x["format"]))
            if want != got:
                bad = f"sample {i}: python {got}, decode {want}"
                break
        result(f"python-decode-{name}", dec.returncode == 0 and bad is None, bad or dec.stderr)
        h = t.header
        result(f"python-header-{name}", h.get("container") == "mtr" and h.get("ref_hz") == 1000000000 and
               h.get("has_index") == 1 and h.get("index_samples") == n and
               str(h.get("producer", "")).startswith("metatrace gen"), repr(h))

with metatrace.open(sampled) as t:
    h = t.header
    result("python-header-unit", h.get("unit.rate_h") == 24 and h.get("unit.rate_l") == 2048 and
           h.get("unit.fmt_h") == "48" and h.get("unit.kind_mask") == 0x1F, repr(h))

# Bad input: TraceError naming the file and the problem.
def raises(path, needle, **kw):
    try:
        with metatrace.open(path, **kw) as t:
            for _ in t.chunks():
                pass
    except metatrace.TraceError as e:
        return path in str(e) and needle in str(e), str(e)
    return False, "no exception"

missing = os.path.join(tmp, "missing.mtr")
result("python-error-missing", *raises(missing, "No such file"))
text = os.path.join(tmp, "text.mtr")
with open(text, "w") as f:
    f.write("not a trace at all\n" * 10)
result("python-error-not-a-trace", *raises(text, ""))
# a damaged stream: bytes flipped in the middle of an uncompressed (.mtp) copy
raw = os.path.join(tmp, "mixed.mtp")
subprocess.run(["zstd", "-q", "-d", "-f", sampled, "-o", raw], check=True)
data = bytearray(open(raw, "rb").read())
mid = len(data) // 2
data[mid:mid + 64] = b"\xff" * 64
damaged = os.path.join(tmp, "damaged.mtp")
open(damaged, "wb").write(bytes(data))
result("python-error-damaged", *raises(damaged, "stream offset"))
with metatrace.open(damaged, strict=False) as t:
    n = sum(len(c) for c in t.chunks())
    st = t.stats()
    result("python-damaged-lenient", st["losses"] > 0 and 0 < n, f"{n} samples, stats {st}")
with metatrace.open(raw) as t:
    n = sum(len(c) for c in t.chunks())
    result("python-raw-mtp", t.header.get("container") == "mtp" and n == t.stats()["samples"] > 0, repr(t.header))

# The example: a miss-ratio curve of the every-access trace, into a PNG.
try:
    import matplotlib  # noqa: F401
    png = os.path.join(tmp, "mrc.png")
    ex = run(sys.executable, example, every, png)
    lines = ex.stdout.split("\n")
    ratios = [float(l.split()[-1]) for l in lines if l.strip()]
    ok = (ex.returncode == 0 and os.path.getsize(png) > 1000 and ratios and
          all(a >= b for a, b in zip(ratios, ratios[1:])) and ratios[0] > ratios[-1])
    result("python-mrc-example", ok, ex.stderr or ex.stdout[-300:])
except ImportError:
    result("python-mrc-example", False, "python3-matplotlib is missing (make deps)")
