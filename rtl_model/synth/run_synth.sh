#!/usr/bin/env bash
# Synthesises the trace unit for the iCE40 UP5K (sg48), in two builds, and writes the figures.
#   run_synth.sh OUTDIR RTL.sv...
# Builds (BUILDS, default "full minimal"):
#   full     every format (mt_tu FullFmt = 1): the unit as the C model has it; files in OUTDIR
#   minimal  the seed's 48-bit and 32-bit formats only (FullFmt = 0; docs/trace-unit-rtl.md
#            section 6); files in OUTDIR/minimal
# Each: yosys synth_ice40 on the serialising package top (synth/mt_tu_sg48.sv, which fits the 39
# I/O pins of the sg48 package), then nextpnr-ice40 placement and routing at a 48 MHz target once
# per seed of SEEDS (default 1-10, two at a time; SEED=N runs one).  The core alone (mt_tu, out of
# context) is synthesised too, so that its own size is reported next to the total (CORE=0 skips it:
# one yosys run less per build).
# Writes OUTDIR/summary.txt: the full build's lut4 N, ff N, bram N, dsp N and fmax_mhz F (the
# MEDIAN over the seeds: what a user placing with an arbitrary seed can expect), device NAME (the
# device placed), then minimal.lut4 N, minimal.fmax_mhz F and the other minimal.* figures; and
# OUTDIR/builds.md, the table of docs/trace-unit-rtl.md section 6.  The best seed's bitstream, log
# and report of each build are kept (fmax_best_mhz, seed).
# Exits non-zero when a tool fails or a build does not fit the UP5K; a missed timing target is
# reported, not an error.
set -euo pipefail
out=${1:?usage: run_synth.sh OUTDIR RTL.sv...}; shift
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"; rm -f "$out/summary.txt" "$out/builds.md"
for t in yosys nextpnr-ice40; do
  command -v $t >/dev/null || { echo "synth: $t not found (make deps installs it)" >&2; exit 1; }
done
rtl=("$@")
srcs=("$@" "$here/mt_tu_sg48.sv")
SEEDS=${SEED:-${SEEDS:-1 2 3 4 5 6 7 8 9 10}}
FREQ=${FREQ:-48}
BUILDS=${BUILDS:-full minimal}
device=up5k-sg48
. "$here/flow.sh"

cells() { # cells STATFILE REGEX -> sum of the counts of the matching cell types (last design block)
  awk -v re="$2" '$1 ~ "^"re"$" && $2 ~ /^[0-9]+$/ { n[$1] = $2 } END { s = 0; for (k in n) s += n[k]; print s }' "$1"
}
seed_fmax() { # seed_fmax DIR N -> that seed's fmax (MHz), empty when it has none
  grep -o "Max frequency for clock[^:]*: [0-9.]* MHz" "$1/seed-$2/nextpnr.log" 2>/dev/null | tail -n 1 | awk '{print $(NF-1)}'
}

# synth_build NAME DIR FULLFMT: one build into DIR; writes DIR/figures.txt (key value lines)
synth_build() {
  local name=$1 d=$2 full=$3
  mkdir -p "$d"; rm -rf "$d"/seed-* "$d/figures.txt"
  # Core out of context: LUT/FF/BRAM of the trace unit itself.
  rm -f "$d/core_stat.txt"
  if [ "${CORE:-1}" = 1 ]; then
    yosys -q -l "$d/yosys_core.log" -p "read_verilog -sv -DMT_TU_ICE40 ${rtl[*]}; chparam -set FullFmt $full mt_tu; $ABC9_SCRIPT synth_ice40 $SYNTH_FLAGS -top mt_tu; tee -o $d/core_stat.txt stat" >/dev/null
  else
    : >"$d/core_stat.txt"
  fi
  # Package top: what is placed and routed.
  yosys -q -l "$d/yosys.log" -p "read_verilog -sv -DMT_TU_ICE40 ${srcs[*]}; chparam -set FullFmt $full mt_tu_sg48; $ABC9_SCRIPT synth_ice40 $SYNTH_FLAGS -top mt_tu_sg48 -json $d/mt_tu_sg48.json; tee -o $d/stat.txt stat" >/dev/null
  # The hard blocks the RTL instantiates must all be in the netlist: yosys removes one whose outputs
  # it believes unused or constant, and a counter lost that way still synthesizes and times (0.23's
  # ice40_dsp dropped an SB_MAC16 whose carry-out fed the fabric: the drop counts read all ones).
  yosys -q -p "read_verilog -sv -DMT_TU_ICE40 ${srcs[*]}; chparam -set FullFmt $full mt_tu_sg48; hierarchy -top mt_tu_sg48; flatten; tee -o $d/elab_stat.txt stat" >/dev/null
  local blk want have
  for blk in SB_MAC16 SB_RAM40_4K; do
    want=$(awk -v b="$blk" '$1 == b { n = $2 } END { print n + 0 }' "$d/elab_stat.txt")
    have=$(awk -v b="$blk" '$1 == b { n = $2 } END { print n + 0 }' "$d/stat.txt")
    if [ "$have" -lt "$want" ]; then
      echo "synth: $name: the netlist has $have $blk of the $want the RTL instantiates ($d/yosys.log)" >&2
      exit 1
    fi
  done
  # Place and route on the UP5K (sg48), once per seed, two at a time.
  local s jobs_max pnr_ok=1
  jobs_max=$(nproc 2>/dev/null || echo 1)
  for s in $SEEDS; do
    mkdir -p "$d/seed-$s"
    nextpnr-ice40 --up5k --package sg48 --json "$d/mt_tu_sg48.json" --pcf-allow-unconstrained \
      --freq "$FREQ" --seed "$s" --timing-allow-fail --report "$d/seed-$s/report.json" \
      --asc "$d/seed-$s/mt_tu_sg48.asc" -l "$d/seed-$s/nextpnr.log" -q >/dev/null 2>&1 &
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 1; done
  done
  local j
  for j in $(jobs -p); do wait "$j" || pnr_ok=0; done
  local best= best_f=0 seeds_f= f
  for s in $SEEDS; do
    f=$(seed_fmax "$d" "$s"); [ -n "$f" ] || { pnr_ok=0; f=none; }
    seeds_f="$seeds_f $s:$f"
    if [ "$f" != none ] && awk -v a="$f" -v b="$best_f" 'BEGIN { exit !(a + 0 > b + 0) }'; then best=$s; best_f=$f; fi
  done
  if [ "$pnr_ok" != 1 ] || [ -z "$best" ]; then
    local first=${SEEDS%% *}
    if grep -qE "Unable to place cell|Failed to expand region" "$d/seed-$first/nextpnr.log" 2>/dev/null; then
      echo "synth: $name does not fit the UP5K: $(grep -o 'ICESTORM_LC: *[0-9]*/ *[0-9]*' "$d/seed-$first/nextpnr.log" | tail -n 1)" >&2
    else
      tail -n 30 "$d/seed-$first/nextpnr.log" >&2 || true; echo "synth: $name: nextpnr-ice40 failed" >&2
    fi
    exit 1
  fi
  local median_f
  median_f=$(for s in $SEEDS; do seed_fmax "$d" "$s"; done | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
  cp "$d/seed-$best/nextpnr.log" "$d/nextpnr.log"
  cp "$d/seed-$best/report.json" "$d/report.json"
  cp "$d/seed-$best/mt_tu_sg48.asc" "$d/mt_tu_sg48.asc"
  local lut ff bram carry dsp clut cff cbram lcs
  lut=$(cells "$d/stat.txt" 'SB_LUT4'); ff=$(cells "$d/stat.txt" 'SB_DFF[A-Z]*')
  bram=$(cells "$d/stat.txt" 'SB_RAM40_4K'); carry=$(cells "$d/stat.txt" 'SB_CARRY')
  dsp=$(cells "$d/stat.txt" 'SB_MAC16')
  clut=$(cells "$d/core_stat.txt" 'SB_LUT4'); cff=$(cells "$d/core_stat.txt" 'SB_DFF[A-Z]*')
  cbram=$(cells "$d/core_stat.txt" 'SB_RAM40_4K')
  [ -s "$d/core_stat.txt" ] || { clut=-; cff=-; cbram=-; }   # (CORE=0)
  lcs=$(grep -o "ICESTORM_LC: *[0-9]*/ *[0-9]*" "$d/nextpnr.log" | tail -n 1 | tr -d ' ' | cut -d: -f2)
  {
    echo "lut4 $lut"
    echo "ff $ff"
    echo "bram $bram"
    echo "dsp $dsp"
    echo "fmax_mhz $median_f"
    echo "fmax_best_mhz $best_f"
    echo "fmax_seeds${seeds_f}"
    echo "lut4_fraction $(awk -v l="$lut" 'BEGIN { printf "%.3f", l / 5280 }')"
    echo "carry $carry"
    echo "logic_cells_placed $lcs"
    echo "core_lut4 $clut"
    echo "core_ff $cff"
    echo "core_bram $cbram"
    echo "seed $best"
  } >"$d/figures.txt"
}

for b in $BUILDS; do
  case $b in
    full) synth_build full "$out" 1 ;;
    minimal) synth_build minimal "$out/minimal" 0 ;;
    *) echo "synth: unknown build '$b' (BUILDS: full minimal)" >&2; exit 1 ;;
  esac
done

fig() { # fig DIR KEY -> the value
  awk -v k="$2" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$1/figures.txt"
}
{
  case " $BUILDS " in *" full "*) cat "$out/figures.txt" ;; esac
  echo "device $device"
  case " $BUILDS " in *" minimal "*) sed 's/^/minimal./' "$out/minimal/figures.txt" ;; esac
  echo "target_mhz $FREQ"
  echo "synth_flags ${SYNTH_FLAGS:-none}${ABC9_SCRIPT:+ (abc9 without &mfs)}"
} >"$out/summary.txt"
# The table of docs/trace-unit-rtl.md section 6 (fmax: the median over the seeds, and the range).
{
  echo "| build | SB_LUT4 (of 5 280) | flip-flops | block RAM | DSP | logic cells placed | fmax median (MHz) | fmax per seed ($SEEDS) |"
  echo "|---|---|---|---|---|---|---|---|"
  for b in $BUILDS; do
    d=$out; [ "$b" = full ] || d=$out/$b
    echo "| $b | $(fig "$d" lut4) ($(awk -v l="$(fig "$d" lut4)" 'BEGIN { printf "%.1f", 100 * l / 5280 }') %) | $(fig "$d" ff) | $(fig "$d" bram) | $(fig "$d" dsp) | $(fig "$d" logic_cells_placed) | $(fig "$d" fmax_mhz) | $(fig "$d" fmax_seeds | sed 's/[0-9]*://g; s/ / \/ /g') |"
  done
} >"$out/builds.md"
cat "$out/summary.txt"; echo; cat "$out/builds.md"
for b in $BUILDS; do
  d=$out; [ "$b" = full ] || d=$out/$b
  awk -v f="$(fig "$d" fmax_mhz)" -v t="$FREQ" -v b="$b" 'BEGIN { if (f + 0 < t + 0) print "synth: " b ": median fmax " f " MHz misses the " t " MHz target" }' >&2
done
