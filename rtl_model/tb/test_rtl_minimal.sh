#!/usr/bin/env bash
# The minimal build (mt_tu FullFmt = 0: the seed's 48-bit and 32-bit formats only; build/rtl/minimal)
# against the C model, for the configurations it supports: the golden vectors that use only those
# formats, and random co-simulation in which FMT writes still ask for every format and the model is
# given what the minimal build accepts (bit 1 of each field reads 0: mt_cosim --minimal), so the
# register's defined behaviour is compared too.  And the converse: told nothing, the model (which
# has every format) must diverge from it, or the build would not lack what it says it lacks.
set -u
cd "$(dirname "$0")/../.."
d="${BUILD:-build}/rtl/minimal"
for name in filters no_spans worked_example; do
  v=tests/golden/$name.vec
  if "$d/mt_rtl_tb" "$v" "${v%.vec}.exp" >/dev/null; then echo "PASS rtl_minimal_golden_$name"; else echo "FAIL rtl_minimal_golden_$name"; fi
done
if "$d/mt_cosim" --minimal --seed 5 --streams 200 --cycles 3000; then echo "PASS rtl_minimal_cosim"; else echo "FAIL rtl_minimal_cosim"; fi
if out=$("$d/mt_cosim" --seed 5 --streams 40 --cycles 3000 2>&1); then
  echo "FAIL rtl_minimal_lacks_full_and_line (identical to the model with every format)"
elif echo "$out" | grep -q DIVERGED; then
  echo "PASS rtl_minimal_lacks_full_and_line"
else
  echo "$out" | tail -n 5; echo "FAIL rtl_minimal_lacks_full_and_line"
fi
