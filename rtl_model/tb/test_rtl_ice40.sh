#!/usr/bin/env bash
# The iCE40 variant of the RTL (MT_TU_ICE40: the SB_RAM40_4K configuration RAMs and the SB_MAC16
# counters that synthesis sees), simulated with yosys' models of those primitives: every golden
# vector, and random co-simulation against the C model (register reads included: the simulation
# library checks the registered read port, i.e. the block RAMs' answers, a clock after each read).
set -u
cd "$(dirname "$0")/../.."
d="${BUILD:-build}/rtl/ice40"
for v in tests/golden/*.vec; do
  name=$(basename "$v" .vec)
  if "$d/mt_rtl_tb" "$v" "${v%.vec}.exp" >/dev/null; then echo "PASS rtl_ice40_golden_$name"; else echo "FAIL rtl_ice40_golden_$name"; fi
done
if "$d/mt_cosim" --seed 3 --streams 200 --cycles 3000; then echo "PASS rtl_ice40_cosim"; else echo "FAIL rtl_ice40_cosim"; fi
