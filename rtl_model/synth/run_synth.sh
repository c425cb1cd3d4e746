#!/usr/bin/env bash
# Synthesises the trace unit for the iCE40, in two builds, and writes the figures.
#   run_synth.sh OUTDIR RTL.sv...
# Builds (BUILDS, default "full minimal"):
#   full     every mode and format (mt_tu FullFmt = 1, Spatial = 1): the unit as the C model has
#            it; files in OUTDIR.  Placed on the HX8K (ct256): with the spatial front end it needs
#            about 6 250 logic cells, more than the UP5K's 5 280 (docs/trace-unit-rtl.md section 6).
#            The HX devices have no SB_MAC16, so the counters are fabric there (MT_TU_NO_DSP).
#            FULL_DEVICE=up5k FULL_SPATIAL=0: the full build without the spatial front end on the
#            UP5K, as before 2026-12-05's spatial mode (FULL_DEVICE=up5k alone does not fit)
#   minimal  the seed's 48-bit and 32-bit formats only (FullFmt = 0; docs/trace-unit-rtl.md
#            section 6), on the UP5K (sg48); files in OUTDIR/minimal
#   rdpath   the reduce path alone (mt_tu_rdpath at LgKMax = RD_LGK, default 6, in the harness
#            synth/mt_tu_rd_harness.sv), on the HX8K (ct256; RD_DEVICE=up5k to try the UP5K):
#            this measures the path's own area and fmax; files in OUTDIR/rdpath.  Not in the
#            default BUILDS (BUILDS="full minimal rdpath" adds it)
#   reduce   the unit with the reduce path (mt_tu FullFmt = 1, Spatial = 0, Reduce = 1, RdLgKMax =
#            RD_LGK) on the UP5K (sg48; RD_DEVICE as for rdpath), the filter's entries in SPRAM;
#            files in OUTDIR/reduce.  It does not fit (docs/trace-unit-rtl.md "The reduce path",
#            Area): its figures.txt is written all the same with fits 0 and what the placer
#            needed (logic_cells_needed, bram), and the run exits non-zero at its end.  Not in the
#            default BUILDS
# Each: yosys synth_ice40 on the serialising package top (synth/mt_tu_sg48.sv, which fits the 39
# I/O pins of the sg48 package), then nextpnr-ice40 placement and routing at a 48 MHz target once
# per seed of SEEDS (default 1-10, JOBS at a time, default the number of cores; SEED=N runs one).  The core alone (mt_tu, out of
# context) is synthesised too, so that its own size is reported next to the total (CORE=0 skips it:
# one yosys run less per build).
# Writes OUTDIR/summary.txt: the full build's lut4 N, ff N, bram N, dsp N and fmax_mhz F (the
# MEDIAN over the seeds: what a user placing with an arbitrary seed can expect), device NAME (the
# device placed), then minimal.lut4 N, minimal.fmax_mhz F, minimal.device and the other minimal.*
# figures; and OUTDIR/builds.md, the table of docs/trace-unit-rtl.md section 6.  The best seed's
# bitstream, log and report of each build are kept (fmax_best_mhz, seed).
# summary.txt and builds.md list every build whose figures.txt is in OUTDIR, the ones placed by
# this run and the ones an earlier run left (BUILDS=rdpath alone keeps the full and minimal
# lines); each build's `when` line tells them apart.
# SUMMARY_ONLY=1 places nothing: it writes summary.txt and builds.md from the figures.txt that
# earlier runs left in OUTDIR (full) and OUTDIR/minimal, so that the two builds can be placed by
# two runs side by side (each BUILDS=one build, the full one into another OUTDIR whose
# figures.txt is copied here) and summarised as one.
# Exits non-zero when a tool fails or a build does not fit its device; a missed timing target is
# reported, not an error.
set -euo pipefail
out=${1:?usage: run_synth.sh OUTDIR RTL.sv...}; shift
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"; rm -f "$out/summary.txt" "$out/builds.md"
for t in yosys nextpnr-ice40; do
  command -v $t >/dev/null || { echo "synth: $t not found (make deps installs it)" >&2; exit 1; }
done
rtl=("$@")
srcs=("$@" "$here/mt_tu_sg48.sv" "$here/mt_tu_rd_harness.sv")
SEEDS=${SEED:-${SEEDS:-1 2 3 4 5 6 7 8 9 10}}
FREQ=${FREQ:-48}
BUILDS=${BUILDS:-full minimal}
FULL_DEVICE=${FULL_DEVICE:-hx8k}
FULL_SPATIAL=${FULL_SPATIAL:-1}
RD_LGK=${RD_LGK:-6}
RD_DEVICE=${RD_DEVICE:-hx8k}
. "$here/flow.sh"

cells() { # cells STATFILE REGEX -> sum of the counts of the matching cell types (last design block)
  awk -v re="$2" '$1 ~ "^"re"$" && $2 ~ /^[0-9]+$/ { n[$1] = $2 } END { s = 0; for (k in n) s += n[k]; print s }' "$1"
}
seed_fmax() { # seed_fmax DIR N -> that seed's fmax (MHz), empty when it has none
  # (status 0 either way: under set -e a failing grep in f=$(seed_fmax ...) ended the script
  # without the "does not fit" message below)
  { grep -o "Max frequency for clock[^:]*: [0-9.]* MHz" "$1/seed-$2/nextpnr.log" 2>/dev/null || true; } | tail -n 1 | awk '{print $(NF-1)}'
}

# synth_build NAME DIR FULLFMT SPATIAL DEVICE [PATH]: one build into DIR for DEVICE (up5k or
# hx8k), of the unit (mt_tu_sg48 over mt_tu) or with PATH=rdpath of the reduce path alone
# (mt_tu_rd_harness over mt_tu_rdpath, LgKMax = RD_LGK; FULLFMT and SPATIAL unused); writes
# DIR/figures.txt (key value lines)
synth_build() {
  local name=$1 d=$2 full=$3 spatial=$4 dev=$5
  local defs="-DMT_TU_ICE40" flags=$SYNTH_FLAGS pnr lcs_max
  local top=mt_tu_sg48 params="chparam -set FullFmt $full -set Spatial $spatial mt_tu_sg48"
  local core=mt_tu core_params="chparam -set FullFmt $full -set Spatial $spatial mt_tu"
  if [ "${6:-}" = unitreduce ]; then
    params="chparam -set FullFmt 1 -set Spatial 0 -set Reduce 1 -set RdLgKMax $RD_LGK mt_tu_sg48"
    core_params="chparam -set FullFmt 1 -set Spatial 0 -set Reduce 1 -set RdLgKMax $RD_LGK mt_tu"
  elif [ "${6:-}" = rdpath ]; then
    top=mt_tu_rd_harness; params="chparam -set LgKMax $RD_LGK mt_tu_rd_harness"
    core=mt_tu_rdpath; core_params="chparam -set LgKMax $RD_LGK mt_tu_rdpath"
  fi
  case $dev in
    up5k) pnr="--up5k --package sg48"; lcs_max=5280 ;;
    # no SB_MAC16 on the HX8K: the counters in the fabric; no SPRAM: mt_tu_spram in block RAM;
    # ABC9 with the HX's delays
    hx8k) pnr="--hx8k --package ct256"; lcs_max=7680; defs="$defs -DMT_TU_NO_DSP -DMT_TU_NO_SPRAM"
          flags=${flags//-device u/-device hx} ;;
    *) echo "synth: unknown device '$dev' (up5k, hx8k)" >&2; exit 1 ;;
  esac
  mkdir -p "$d"; rm -rf "$d"/seed-* "$d/figures.txt"
  # Core out of context: LUT/FF/BRAM of the trace unit itself.
  rm -f "$d/core_stat.txt"
  if [ "${CORE:-1}" = 1 ]; then
    yosys -q -l "$d/yosys_core.log" -p "read_verilog -sv $defs ${rtl[*]}; $core_params; $ABC9_SCRIPT synth_ice40 $flags -top $core; tee -o $d/core_stat.txt stat" >/dev/null
  else
    : >"$d/core_stat.txt"
  fi
  # Package top: what is placed and routed.
  yosys -q -l "$d/yosys.log" -p "read_verilog -sv $defs ${srcs[*]}; $params; $ABC9_SCRIPT synth_ice40 $flags -top $top -json $d/$top.json; tee -o $d/stat.txt stat" >/dev/null
  # The hard blocks the RTL instantiates must all be in the netlist: yosys removes one whose outputs
  # it believes unused or constant, and a counter lost that way still synthesizes and times (0.23's
  # ice40_dsp dropped an SB_MAC16 whose carry-out fed the fabric: the drop counts read all ones).
  yosys -q -p "read_verilog -sv $defs ${srcs[*]}; $params; hierarchy -top $top; flatten; tee -o $d/elab_stat.txt stat" >/dev/null
  local blk want have
  for blk in SB_MAC16 SB_RAM40_4K SB_SPRAM256KA; do
    want=$(awk -v b="$blk" '$1 == b { n = $2 } END { print n + 0 }' "$d/elab_stat.txt")
    have=$(awk -v b="$blk" '$1 == b { n = $2 } END { print n + 0 }' "$d/stat.txt")
    if [ "$have" -lt "$want" ]; then
      echo "synth: $name: the netlist has $have $blk of the $want the RTL instantiates ($d/yosys.log)" >&2
      exit 1
    fi
  done
  # Place and route, once per seed, JOBS at a time.
  local s jobs_max pnr_ok=1
  jobs_max=${JOBS:-$(nproc 2>/dev/null || echo 1)}
  for s in $SEEDS; do
    mkdir -p "$d/seed-$s"
    nextpnr-ice40 $pnr --json "$d/$top.json" --pcf-allow-unconstrained \
      --freq "$FREQ" --seed "$s" --timing-allow-fail --report "$d/seed-$s/report.json" \
      --asc "$d/seed-$s/$top.asc" -l "$d/seed-$s/nextpnr.log" -q >/dev/null 2>&1 &
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
    if grep -qE "Unable to place cell|Failed to expand region|Design uses|too many" "$d/seed-$first/nextpnr.log" 2>/dev/null; then
      echo "synth: $name does not fit the $dev: $(grep -oE '(ICESTORM_LC|ICESTORM_RAM|ICESTORM_SPRAM): *[0-9]*/ *[0-9]*' "$d/seed-$first/nextpnr.log" | tr -s ' ' | paste -sd, -)" >&2
      nofit_figures "$name" "$d" "$dev" "$lcs_max" "$d/seed-$first/nextpnr.log"
      NOFIT="${NOFIT:-}$name "
      return 0
    else
      tail -n 30 "$d/seed-$first/nextpnr.log" >&2 || true; echo "synth: $name: nextpnr-ice40 failed" >&2
    fi
    exit 1
  fi
  local median_f
  median_f=$(for s in $SEEDS; do seed_fmax "$d" "$s"; done | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
  cp "$d/seed-$best/nextpnr.log" "$d/nextpnr.log"
  cp "$d/seed-$best/report.json" "$d/report.json"
  cp "$d/seed-$best/$top.asc" "$d/$top.asc"
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
    echo "device $dev-${pnr##* }"
    echo "lut4_fraction $(awk -v l="$lut" -v m="$lcs_max" 'BEGIN { printf "%.3f", l / m }')"
    if [ $top = mt_tu_sg48 ]; then echo "spatial $spatial"; fi
    if [ $top != mt_tu_sg48 ] || [ "${6:-}" = unitreduce ]; then echo "lgkmax $RD_LGK"; fi
    echo "synth_flags ${flags:-none}${ABC9_SCRIPT:+ (abc9 without &mfs)}"
    echo "carry $carry"
    echo "logic_cells_placed $lcs"
    echo "core_lut4 $clut"
    echo "core_ff $cff"
    echo "core_bram $cbram"
    echo "seed $best"
    echo "spram $(cells "$d/stat.txt" 'SB_SPRAM256KA')"
    echo "fits 1"
    echo "when $(date -u +%Y-%m-%dT%H:%MZ) $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo -)"
  } >"$d/figures.txt"
}

# nofit_figures NAME DIR DEVICE LCS_MAX NEXTPNR_LOG: the figures of a build that nextpnr could not
# place: the netlist's cells (yosys) and what the placer counted against the device, so that the
# summary says by how much it misses (fmax none).
nofit_figures() {
  local d=$2 lut need
  lut=$(cells "$d/stat.txt" 'SB_LUT4')
  need=$(grep -oE 'ICESTORM_LC: *[0-9]+/ *[0-9]+' "$5" | tail -n 1 | tr -d ' ' | cut -d: -f2)
  {
    echo "lut4 $lut"
    echo "ff $(cells "$d/stat.txt" 'SB_DFF[A-Z]*')"
    echo "bram $(cells "$d/stat.txt" 'SB_RAM40_4K')"
    echo "dsp $(cells "$d/stat.txt" 'SB_MAC16')"
    echo "fmax_mhz none"
    echo "fmax_seeds none"
    echo "device $3-${pnr##* }"
    echo "lut4_fraction $(awk -v l="$lut" -v m="$4" 'BEGIN { printf "%.3f", l / m }')"
    echo "lgkmax $RD_LGK"
    echo "carry $(cells "$d/stat.txt" 'SB_CARRY')"
    echo "logic_cells_placed none"
    echo "logic_cells_needed ${need:-unknown}"
    echo "bram_needed $(grep -oE 'ICESTORM_RAM: *[0-9]+/ *[0-9]+' "$5" | tail -n 1 | tr -d ' ' | cut -d: -f2)"
    echo "spram $(cells "$d/stat.txt" 'SB_SPRAM256KA')"
    echo "fits 0"
    echo "when $(date -u +%Y-%m-%dT%H:%MZ) $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo -)"
  } >"$d/figures.txt"
}

for b in $BUILDS; do
  if [ "${SUMMARY_ONLY:-0}" = 1 ]; then
    d=$out; [ "$b" = full ] || d=$out/$b
    [ -s "$d/figures.txt" ] || { echo "synth: SUMMARY_ONLY: no $d/figures.txt (place the $b build first)" >&2; exit 1; }
    continue
  fi
  case $b in
    full) synth_build full "$out" 1 "$FULL_SPATIAL" "$FULL_DEVICE" ;;
    minimal) synth_build minimal "$out/minimal" 0 0 up5k ;;
    rdpath) synth_build rdpath "$out/rdpath" 0 0 "$RD_DEVICE" rdpath ;;
    reduce) synth_build reduce "$out/reduce" 1 0 "${RD_DEVICE_UNIT:-up5k}" unitreduce ;;
    *) echo "synth: unknown build '$b' (BUILDS: full minimal rdpath reduce)" >&2; exit 1 ;;
  esac
done

fig() { # fig DIR KEY -> the value
  awk -v k="$2" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$1/figures.txt"
}
# Every build with figures in OUTDIR, this run's and earlier runs' (a partial BUILDS= run keeps
# the others' lines): the full build's keys bare, the others' prefixed with the build's name.
ALL_BUILDS="full minimal rdpath reduce"
fig_dir() { if [ "$1" = full ]; then echo "$out"; else echo "$out/$1"; fi; }
LISTED=
for b in $ALL_BUILDS; do [ -s "$(fig_dir "$b")/figures.txt" ] && LISTED="$LISTED $b"; done
{
  for b in $LISTED; do
    if [ "$b" = full ]; then cat "$out/figures.txt"; else sed "s/^/$b./" "$out/$b/figures.txt"; fi
  done
  echo "target_mhz $FREQ"
} >"$out/summary.txt"
# The table of docs/trace-unit-rtl.md section 6 (fmax: the median over the seeds, and the range).
{
  echo "| build | device | SB_LUT4 (% of the device's LUT4) | flip-flops | block RAM | DSP | logic cells placed | fmax median (MHz) | fmax per seed ($SEEDS) |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for b in $LISTED; do
    d=$(fig_dir "$b")
    echo "| $b | $(fig "$d" device) | $(fig "$d" lut4) ($(awk -v f="$(fig "$d" lut4_fraction)" 'BEGIN { printf "%.1f", 100 * f }') %) | $(fig "$d" ff) | $(fig "$d" bram) | $(fig "$d" dsp) | $(fig "$d" logic_cells_placed) | $(fig "$d" fmax_mhz) | $(fig "$d" fmax_seeds | sed 's/[0-9]*://g; s/ / \/ /g') |"
  done
} >"$out/builds.md"
cat "$out/summary.txt"; echo; cat "$out/builds.md"
for b in $BUILDS; do
  d=$(fig_dir "$b")
  [ "$(fig "$d" fits)" != 0 ] || continue
  awk -v f="$(fig "$d" fmax_mhz)" -v t="$FREQ" -v b="$b" 'BEGIN { if (f + 0 < t + 0) print "synth: " b ": median fmax " f " MHz misses the " t " MHz target" }' >&2
done
if [ -n "${NOFIT:-}" ] && [ "${SUMMARY_ONLY:-0}" != 1 ]; then
  echo "synth: does not fit its device: $NOFIT(figures in summary.txt)" >&2
  exit 1
fi
