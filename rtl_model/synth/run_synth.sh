#!/usr/bin/env bash
# Synthesises the trace unit for the iCE40 UP5K (sg48) and writes the figures.
#   run_synth.sh OUTDIR RTL.sv...
# yosys synth_ice40 on the serialising package top (synth/mt_tu_sg48.sv, which fits the 39 I/O pins
# of the sg48 package), then nextpnr-ice40 placement and routing at a 48 MHz target.  The core alone
# (mt_tu, out of context) is synthesised too, so that its own size is reported next to the total.
# Writes OUTDIR/summary.txt: lut4 N, ff N, bram N, dsp N, fmax_mhz X (plus core_* lines and the device
# fraction, and fmax_device: the device that was placed, hx8k-ct256 when the UP5K is too small).
# Placement runs for each seed of SEEDS (default 1-10, two at a time); fmax_mhz is the best seed's
# (whose bitstream, log and report are kept: what a user sweeping seeds gets), fmax_median_mhz and
# fmax_seeds show the spread (about +-2 MHz on this design).  SEED=N runs one seed.
# Exits non-zero when a tool fails; a missed timing target or a misfit is reported, not an error.
set -euo pipefail
out=${1:?usage: run_synth.sh OUTDIR RTL.sv...}; shift
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"; rm -f "$out/nextpnr-up5k.log" "$out/summary.txt"
for t in yosys nextpnr-ice40; do
  command -v $t >/dev/null || { echo "synth: $t not found (make deps installs it)" >&2; exit 1; }
done
srcs=("$@" "$here/mt_tu_sg48.sv")
SEEDS=${SEED:-${SEEDS:-1 2 3 4 5 6 7 8 9 10}}
FREQ=${FREQ:-48}
. "$here/flow.sh"

# Core out of context: LUT/FF/BRAM of the trace unit itself.
yosys -q -l "$out/yosys_core.log" -p "read_verilog -sv -DMT_TU_ICE40 ${*}; $ABC9_SCRIPT synth_ice40 $SYNTH_FLAGS -top mt_tu; tee -o $out/core_stat.txt stat" >/dev/null
# Package top: what is placed and routed.
yosys -q -l "$out/yosys.log" -p "read_verilog -sv -DMT_TU_ICE40 ${srcs[*]}; $ABC9_SCRIPT synth_ice40 $SYNTH_FLAGS -top mt_tu_sg48 -json $out/mt_tu_sg48.json; tee -o $out/stat.txt stat" >/dev/null
# The hard blocks the RTL instantiates must all be in the netlist: yosys removes one whose outputs
# it believes unused or constant, and a counter lost that way still synthesizes and times (0.23's
# ice40_dsp dropped an SB_MAC16 whose carry-out fed the fabric: the drop counts read all ones).
yosys -q -p "read_verilog -sv -DMT_TU_ICE40 ${srcs[*]}; hierarchy -top mt_tu_sg48; flatten; tee -o $out/elab_stat.txt stat" >/dev/null
for blk in SB_MAC16 SB_RAM40_4K; do
  want=$(awk -v b="$blk" '$1 == b { n = $2 } END { print n + 0 }' "$out/elab_stat.txt")
  have=$(awk -v b="$blk" '$1 == b { n = $2 } END { print n + 0 }' "$out/stat.txt")
  if [ "$have" -lt "$want" ]; then
    echo "synth: the netlist has $have $blk of the $want the RTL instantiates ($out/yosys.log)" >&2
    exit 1
  fi
done
# Place and route on the UP5K (sg48).  If the design does not fit there, say so and place it on
# the next larger iCE40 (HX8K, ct256) so that timing is still measured, on a named device.
device=up5k-sg48
pnr_seed() { # pnr_seed N: place and route with seed N into OUTDIR/seed-N/
  mkdir -p "$out/seed-$1"
  nextpnr-ice40 --up5k --package sg48 --json "$out/mt_tu_sg48.json" --pcf-allow-unconstrained \
    --freq "$FREQ" --seed "$1" --timing-allow-fail --report "$out/seed-$1/report.json" \
    --asc "$out/seed-$1/mt_tu_sg48.asc" -l "$out/seed-$1/nextpnr.log" -q >/dev/null 2>&1
}
seed_fmax() { # seed_fmax N -> that seed's fmax (MHz), empty when it has none
  grep -o "Max frequency for clock[^:]*: [0-9.]* MHz" "$out/seed-$1/nextpnr.log" 2>/dev/null | tail -n 1 | awk '{print $(NF-1)}'
}
rm -rf "$out"/seed-*
jobs_max=$(nproc 2>/dev/null || echo 1)
pnr_ok=1
for s in $SEEDS; do
  pnr_seed "$s" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 1; done
done
for j in $(jobs -p); do wait "$j" || pnr_ok=0; done
best= ; best_f=0; seeds_f=
for s in $SEEDS; do
  f=$(seed_fmax "$s"); [ -n "$f" ] || { pnr_ok=0; f=none; }
  seeds_f="$seeds_f $s:$f"
  if [ "$f" != none ] && awk -v a="$f" -v b="$best_f" 'BEGIN { exit !(a + 0 > b + 0) }'; then best=$s; best_f=$f; fi
done
median_f=$(for s in $SEEDS; do seed_fmax "$s"; done | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
first=${SEEDS%% *}
if [ "$pnr_ok" = 1 ] && [ -n "$best" ]; then
  cp "$out/seed-$best/nextpnr.log" "$out/nextpnr.log"
  cp "$out/seed-$best/report.json" "$out/report.json"
  cp "$out/seed-$best/mt_tu_sg48.asc" "$out/mt_tu_sg48.asc"
else
  cp "$out/seed-$first/nextpnr.log" "$out/nextpnr.log" 2>/dev/null || true
  best=$first; seeds_f=" $first"; median_f=
  false
fi || {
  if grep -qE "Unable to place cell|Failed to expand region" "$out/nextpnr.log"; then
    cp "$out/nextpnr.log" "$out/nextpnr-up5k.log"
    echo "synth: does not fit the UP5K: $(grep -o 'ICESTORM_LC: *[0-9]*/ *[0-9]*' "$out/nextpnr-up5k.log" | tail -n 1)" >&2
    device=hx8k-ct256
    nextpnr-ice40 --hx8k --package ct256 --json "$out/mt_tu_sg48.json" --pcf-allow-unconstrained \
      --freq "$FREQ" --seed "$first" --timing-allow-fail --report "$out/report.json" \
      --asc "$out/mt_tu_sg48.asc" -l "$out/nextpnr.log" -q >/dev/null 2>&1 \
      || { tail -n 30 "$out/nextpnr.log" >&2; echo "synth: nextpnr-ice40 (hx8k) failed" >&2; exit 1; }
  else
    tail -n 30 "$out/nextpnr.log" >&2; echo "synth: nextpnr-ice40 failed" >&2; exit 1
  fi
}

cells() { # cells STATFILE REGEX -> sum of the counts of the matching cell types (last design block)
  awk -v re="$2" '$1 ~ "^"re"$" && $2 ~ /^[0-9]+$/ { n[$1] = $2 } END { s = 0; for (k in n) s += n[k]; print s }' "$1"
}
lut=$(cells "$out/stat.txt" 'SB_LUT4'); ff=$(cells "$out/stat.txt" 'SB_DFF[A-Z]*')
bram=$(cells "$out/stat.txt" 'SB_RAM40_4K'); carry=$(cells "$out/stat.txt" 'SB_CARRY')
dsp=$(cells "$out/stat.txt" 'SB_MAC16')
clut=$(cells "$out/core_stat.txt" 'SB_LUT4'); cff=$(cells "$out/core_stat.txt" 'SB_DFF[A-Z]*')
cbram=$(cells "$out/core_stat.txt" 'SB_RAM40_4K')
# nextpnr: "Max frequency for clock 'clk_i$SB_IO_IN_$glb_clk': 52.31 MHz (PASS at 48.00 MHz)"
fmax=$(grep -o "Max frequency for clock[^:]*: [0-9.]* MHz" "$out/nextpnr.log" | tail -n 1 | awk '{print $(NF-1)}')
lcs=$(grep -o "ICESTORM_LC: *[0-9]*/ *[0-9]*" "$out/nextpnr.log" | tail -n 1 | tr -d ' ' | cut -d: -f2)
# (nextpnr-up5k.log exists only when the UP5K was too small)
up5k_lcs=$( { grep -o "ICESTORM_LC: *[0-9]*/ *[0-9]*" "$out/nextpnr-up5k.log" 2>/dev/null || true; } | tail -n 1 | tr -d ' ' | cut -d: -f2)
[ -n "$up5k_lcs" ] || up5k_lcs=$lcs
[ -n "$fmax" ] || { echo "synth: no fmax in $out/nextpnr.log" >&2; exit 1; }
{
  echo "lut4 $lut"
  echo "ff $ff"
  echo "bram $bram"
  echo "dsp $dsp"
  echo "fmax_mhz $fmax"
  echo "fmax_median_mhz ${median_f:-$fmax}"
  echo "fmax_seeds${seeds_f}"
  echo "lut4_fraction $(awk -v l="$lut" 'BEGIN { printf "%.3f", l / 5280 }')"
  echo "up5k_lc_demand $up5k_lcs"
  echo "fmax_device $device"
  echo "carry $carry"
  echo "logic_cells_placed $lcs"
  echo "core_lut4 $clut"
  echo "core_ff $cff"
  echo "core_bram $cbram"
  echo "target_mhz $FREQ"
  echo "seed $best"
  echo "synth_flags ${SYNTH_FLAGS:-none}${ABC9_SCRIPT:+ (abc9 without &mfs)}"
} >"$out/summary.txt"
cat "$out/summary.txt"
awk -v f="$fmax" -v t="$FREQ" 'BEGIN { if (f + 0 < t + 0) print "synth: fmax " f " MHz misses the " t " MHz target" }' >&2
