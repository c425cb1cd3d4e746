#!/usr/bin/env bash
# The spatial mode (SPATIAL.EN: mt_tu_spatial.sv against lib/mt_unit_spatial.c) in random
# co-simulation: mt_cosim --spatial streams (pages that repeat, alternate, walk and jump; accesses
# from every clock to one in thirty; SPATIAL written mid-session; r = 1 full format mostly, other
# programs too), compared every cycle or sparsely as mt_cosim does, on the Verilated RTL, on the
# iCE40 variant (the front end's memory in SB_RAM40_4K, simulated with yosys' model) and on the
# gate-level netlist (gate_netlist.sh synthesizes mt_tu with the front end).  The golden vector
# spatial_unit runs with the others (test_rtl_golden.sh, rtl_variant.sh).
set -u
b="${BUILD:-build}/rtl"
run() { # name binary args...
  local name=$1 bin=$2; shift 2
  if "$bin" --spatial "$@"; then echo "PASS $name"; else echo "FAIL $name"; fi
}
run rtl_spatial_cosim "$b/mt_cosim" --seed 21 --streams 300 --cycles 3000
run rtl_spatial_cosim_long "$b/mt_cosim" --seed 22 --streams 4 --cycles 60000
run rtl_spatial_ice40_cosim "$b/ice40/mt_cosim" --seed 23 --streams 60 --cycles 3000
run rtl_spatial_gate_cosim "$b/gate/mt_cosim" --seed 24 --streams 20 --cycles 3000
