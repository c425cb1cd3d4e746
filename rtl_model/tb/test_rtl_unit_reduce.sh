#!/usr/bin/env bash
# The unit's reduce mode (mt_tu_rdpath over mt_tu_reduce) against the C model (lib/mt_unit_rd.c):
# random co-simulation (mt_cosim --reduce: random budgets, walking / repeating / alternating pages,
# accesses every clock or sparse, REDUCE and CTRL written mid-session, small FIFOs), every clock
# compared, register reads included, the stop's flush and the END.  The golden vector
# reduce_unit.vec runs with the others (test_rtl_golden.sh).
set -u
cd "$(dirname "$0")/../.."
cosim="${BUILD:-build}/rtl/mt_cosim"
# (seed 3, 140 streams: slots forced, and records that found the record queue full, both happen)
if out=$("$cosim" --reduce --seed 3 --streams 140 --cycles 20000 2>&1); then
  echo "$out" | tail -n 2
  echo "PASS rtl_unit_reduce_cosim"
  if echo "$out" | awk '/reduce path/ { for (i = 1; i < NF; i++) { if ($(i+1) == "slots") f = $i; if ($(i+1) == "records" && $(i+2) == "at") q = $i } }
                        END { exit !(f > 0 && q > 0) }'; then
    echo "PASS rtl_unit_reduce_cosim_coverage"
  else
    echo "FAIL rtl_unit_reduce_cosim_coverage (no forced slot or no full record queue)"
  fi
else
  echo "$out" | tail -n 40; echo "FAIL rtl_unit_reduce_cosim"
fi
