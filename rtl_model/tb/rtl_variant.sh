#!/usr/bin/env bash
# One build variant of the RTL against the C model: every golden vector through its testbench and
# random co-simulation.  rtl_variant.sh VARIANT SEED STREAMS [MAXDRAIN] runs
# build/rtl/VARIANT/{mt_rtl_tb,mt_cosim} and prints PASS/FAIL lines named rtl_VARIANT_*
# (test_rtl_ice40.sh, test_rtl_gate.sh).  MAXDRAIN: the variant's Drain parameter when it is
# built narrower than 8 (its random streams keep within it; a vector asking for more is named
# and skipped: the build cannot be created with it).
set -u
variant=${1:?usage: rtl_variant.sh VARIANT SEED STREAMS [MAXDRAIN]}; seed=${2:?}; streams=${3:?}
maxdrain=${4:-8}
cd "$(dirname "$0")/../.."
d="${BUILD:-build}/rtl/$variant"
for v in tests/golden/*.vec; do
  name=$(basename "$v" .vec)
  drain=$(awk '$1 == "param" && $2 == "drain" { print $3 }' "$v")
  if [ "${drain:-8}" -gt "$maxdrain" ]; then
    echo "rtl_${variant}_golden_$name: skipped (drain ${drain:-8} > the build's $maxdrain)"
    continue
  fi
  # the gate netlist is mt_tu at its defaults (Reduce = 0): no reduce path
  if [ "$variant" = gate ] && grep -q '^# needs reduce' "$v"; then
    echo "rtl_${variant}_golden_$name: skipped (the gate netlist has no reduce path)"
    continue
  fi
  if "$d/mt_rtl_tb" "$v" "${v%.vec}.exp" >/dev/null; then echo "PASS rtl_${variant}_golden_$name"; else echo "FAIL rtl_${variant}_golden_$name"; fi
done
if "$d/mt_cosim" --seed "$seed" --streams "$streams" --cycles 3000; then echo "PASS rtl_${variant}_cosim"; else echo "FAIL rtl_${variant}_cosim"; fi
# each stream from a reset that cut off a session (what synthesis makes of the data registers
# without a reset: docs/trace-unit-rtl.md section 3)
if "$d/mt_cosim" --warm-reset --seed "$seed" --streams $(( (streams + 1) / 2 )) --cycles 3000; then echo "PASS rtl_${variant}_cosim_warm_reset"; else echo "FAIL rtl_${variant}_cosim_warm_reset"; fi
