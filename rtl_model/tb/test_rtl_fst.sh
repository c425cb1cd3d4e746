#!/usr/bin/env bash
# Waveforms: the FST build of the testbench replays a golden vector, still matches it, and writes
# a non-trivial FST file (header block type 0, written by the FST writer).
set -u
cd "$(dirname "$0")/../.."
tb="${BUILD:-build}/rtl/mt_rtl_tb_fst"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
v=tests/golden/worked_example
if "$tb" "$v.vec" "$v.exp" --fst "$out/w.fst" && [ "$(stat -c %s "$out/w.fst")" -gt 1000 ] &&
   [ "$(head -c 1 "$out/w.fst" | od -An -tu1 | tr -d ' ')" = 0 ] && grep -aq "fstWriter" "$out/w.fst"; then
  echo "PASS rtl_fst_waveform"
else
  echo "FAIL rtl_fst_waveform"
fi
# The plain library refuses a waveform request with a clear message instead of ignoring it.
if ! "${BUILD:-build}/rtl/mt_rtl_tb" "$v.vec" "$v.exp" --fst "$out/x.fst" 2>"$out/err" &&
   grep -q "rtl-fst" "$out/err" && [ ! -e "$out/x.fst" ]; then
  echo "PASS rtl_fst_refused_without_fst_build"
else
  echo "FAIL rtl_fst_refused_without_fst_build"
fi
