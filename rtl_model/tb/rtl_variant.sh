#!/usr/bin/env bash
# One build variant of the RTL against the C model: every golden vector through its testbench and
# random co-simulation.  rtl_variant.sh VARIANT SEED STREAMS runs build/rtl/VARIANT/{mt_rtl_tb,
# mt_cosim} and prints PASS/FAIL lines named rtl_VARIANT_* (test_rtl_ice40.sh, test_rtl_gate.sh).
set -u
variant=${1:?usage: rtl_variant.sh VARIANT SEED STREAMS}; seed=${2:?}; streams=${3:?}
cd "$(dirname "$0")/../.."
d="${BUILD:-build}/rtl/$variant"
for v in tests/golden/*.vec; do
  name=$(basename "$v" .vec)
  if "$d/mt_rtl_tb" "$v" "${v%.vec}.exp" >/dev/null; then echo "PASS rtl_${variant}_golden_$name"; else echo "FAIL rtl_${variant}_golden_$name"; fi
done
if "$d/mt_cosim" --seed "$seed" --streams "$streams" --cycles 3000; then echo "PASS rtl_${variant}_cosim"; else echo "FAIL rtl_${variant}_cosim"; fi
