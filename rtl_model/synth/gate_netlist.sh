#!/usr/bin/env bash
# Writes the synthesized netlist of the trace unit (mt_tu) for gate-level simulation.
#   gate_netlist.sh OUT.v RTL.sv...
# The flow of run_synth.sh (flow.sh: the same synth_ice40 options and ABC9 script), on the core at
# the simulation library's size (Depth 65536, Drain 8: the library straps it at run time) rather
# than the package top, written as a flat netlist of iCE40 cells (SB_LUT4, SB_CARRY, SB_DFF*,
# SB_RAM40_4K, SB_MAC16), which Verilator simulates with yosys' own models of those cells.
# MT_TU_SIMCHECK adds mt_tu_awram's behavioural shadow (the immediate read answer the simulation
# library checks the block RAMs' registered answer against); everything else is what is placed.
set -euo pipefail
out=${1:?usage: gate_netlist.sh OUT.v RTL.sv...}; shift
here=$(cd "$(dirname "$0")" && pwd)
command -v yosys >/dev/null || { echo "gate_netlist: yosys not found (make deps installs it)" >&2; exit 1; }
. "$here/flow.sh"
mkdir -p "$(dirname "$out")"
tmp="$out.tmp"
yosys -q -l "$out.log" -p "read_verilog -sv -DMT_TU_ICE40 -DMT_TU_SIMCHECK ${*}; chparam -set Depth 65536 -set Drain 8 mt_tu; $ABC9_SCRIPT synth_ice40 $SYNTH_FLAGS -top mt_tu; write_verilog -noattr $tmp" >/dev/null \
  || { echo "gate_netlist: yosys failed ($out.log)" >&2; rm -f "$tmp"; exit 1; }
mv "$tmp" "$out"
