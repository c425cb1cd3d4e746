#!/usr/bin/env bash
# The RTL is clean under `verilator --lint-only -Wall`, and yosys 0.23 (the synthesis front end)
# reads and elaborates every module with the top's default parameters.
set -u
cd "$(dirname "$0")/../.."
srcs=(rtl_model/rtl/mt_tu_pkg.sv $(ls rtl_model/rtl/*.sv | grep -v _pkg.sv))
if out=$(verilator --lint-only -Wall --top-module mt_tu "${srcs[@]}" 2>&1); then
  echo "PASS rtl_lint_verilator"
else
  echo "$out" | head -n 30; echo "FAIL rtl_lint_verilator"
fi
# with the reduce path (Reduce = 1: the simulation library's build)
if out=$(verilator --lint-only -Wall -GReduce=1 --top-module mt_tu "${srcs[@]}" 2>&1); then
  echo "PASS rtl_lint_verilator_reduce"
else
  echo "$out" | head -n 30; echo "FAIL rtl_lint_verilator_reduce"
fi
# the minimal build (FullFmt = 0) too, with the synthesis harness's FIFO (4096 bytes, a 4-byte
# port: 4 lanes): its constants must not leave unused or undriven logic
if out=$(verilator --lint-only -Wall -GFullFmt=0 -GDepth=4096 -GDrain=4 --top-module mt_tu "${srcs[@]}" 2>&1); then
  echo "PASS rtl_lint_verilator_minimal"
else
  echo "$out" | head -n 30; echo "FAIL rtl_lint_verilator_minimal"
fi
# the reduce path's own synthesis harness (run_synth.sh's rdpath build), which no simulation runs
if out=$(verilator --lint-only -Wall --top-module mt_tu_rd_harness rtl_model/rtl/mt_tu_rdpath.sv rtl_model/rtl/mt_tu_reduce.sv \
      rtl_model/rtl/mt_tu_modereg.sv rtl_model/rtl/mt_tu_ram.sv rtl_model/rtl/mt_tu_spram.sv rtl_model/synth/mt_tu_rd_harness.sv 2>&1); then
  echo "PASS rtl_lint_verilator_rd_harness"
else
  echo "$out" | head -n 30; echo "FAIL rtl_lint_verilator_rd_harness"
fi
if out=$(yosys -q -p "read_verilog -sv ${srcs[*]} rtl_model/synth/mt_tu_sg48.sv; hierarchy -check -top mt_tu_sg48; proc; check -assert" 2>&1); then
  echo "PASS rtl_yosys_elaborate"
else
  echo "$out" | tail -n 30; echo "FAIL rtl_yosys_elaborate"
fi
# The iCE40 builds as run_synth.sh elaborates them: the UP5K's (MT_TU_ICE40) has its counters in
# the 8 SB_MAC16; the HX8K's (MT_TU_NO_DSP too: that device has no SB_MAC16) has none, and the
# same block RAMs instantiated (the full build with the spatial front end: 21, the FIFO's banks
# are inferred later)
stat_f=$(mktemp); trap 'rm -f "$stat_f"' EXIT
ice40_blocks() { # ice40_blocks DEFINES -> "MAC16 RAM40" counts of the elaborated package top
  : >"$stat_f"
  yosys -q -p "read_verilog -lib +/ice40/cells_sim.v; read_verilog -sv $1 ${srcs[*]} rtl_model/synth/mt_tu_sg48.sv; chparam -set FullFmt 1 -set Spatial 1 mt_tu_sg48; hierarchy -check -top mt_tu_sg48; flatten; tee -q -o $stat_f stat" >/dev/null 2>&1
  awk '$1 == "SB_MAC16" { m = $2 } $1 == "SB_RAM40_4K" { r = $2 } END { print m + 0, r + 0 }' "$stat_f"
}
up=$(ice40_blocks "-DMT_TU_ICE40"); hx=$(ice40_blocks "-DMT_TU_ICE40 -DMT_TU_NO_DSP")
if [ "$up" = "8 21" ] && [ "$hx" = "0 21" ]; then
  echo "PASS rtl_yosys_ice40_dsp_or_fabric"
else
  echo "SB_MAC16 and SB_RAM40_4K: UP5K build '$up' (want '8 21'), HX8K build '$hx' (want '0 21')"
  echo "FAIL rtl_yosys_ice40_dsp_or_fabric"
fi
