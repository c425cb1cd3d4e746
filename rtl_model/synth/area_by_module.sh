#!/usr/bin/env bash
# Where a build's SB_LUT4 go, module by module, in context: the package top synthesised flat as
# run_synth.sh does it (straps folded, constants propagated), once as it is and once per module
# with that module made a black box (yosys `blackbox`).  The drop in SB_LUT4 and flip-flops is
# what the module costs inside the design (its children included): its inputs are still formed,
# since the black box takes them, and its outputs become free inputs, so nothing after it is
# simplified away.  (-noflatten instead maps each module alone, with the straps and the constants
# of the minimal build not folded: about 1 400 SB_LUT4 more than the flat netlist.)  ABC9's
# mapping moves by 10-20 tables with any change of its input, so a module under about 20 tables
# is within the noise.
#   area_by_module.sh [MODULE...]          (default: the blocks of the minimal build)
# BUILD=minimal (default) or full (FullFmt = 1, Spatial = 1, the HX8K's flags, as run_synth.sh);
# JOBS yosys runs at a time (default 2).  Prints "module SB_LUT4 FF" rows, the whole design first.
# About a minute and a half of CPU per run on the minimal build.
set -euo pipefail
cd "$(dirname "$0")/../.."
. rtl_model/synth/flow.sh
build=${BUILD:-minimal}
defs="-DMT_TU_ICE40" flags=$SYNTH_FLAGS
case $build in
  minimal) params="chparam -set FullFmt 0 -set Spatial 0 mt_tu_sg48" ;;
  full) params="chparam -set FullFmt 1 -set Spatial 1 mt_tu_sg48"; defs="$defs -DMT_TU_NO_DSP"
        flags=${flags//-device u/-device hx} ;;
  *) echo "area_by_module: unknown BUILD '$build' (minimal, full)" >&2; exit 1 ;;
esac
mods=("$@")
[ ${#mods[@]} -gt 0 ] || mods=(mt_tu_fifo mt_tu_regs mt_tu_awram mt_tu_rdcopy mt_tu_ctrl mt_tu_pktpipe
                               mt_tu_pack mt_tu_precomp mt_tu_enc mt_tu_desc mt_tu_capture mt_tu_arb
                               mt_tu_syncest mt_tu_cntdown mt_tu_counters mt_tu_markval mt_tu_cfgram)
srcs=(rtl_model/rtl/mt_tu_pkg.sv $(ls rtl_model/rtl/*.sv | grep -v _pkg.sv | sort) rtl_model/synth/mt_tu_sg48.sv)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
one() { # one NAME MODULE|"": the stat of the design with MODULE a black box
  local bb=
  [ -z "$2" ] || bb="blackbox *\\$2 *\\$2\\*;"   # (a parametrised module is named \$paramod...\NAME\...)
  yosys -q -p "read_verilog -sv $defs ${srcs[*]}; $params; hierarchy -top mt_tu_sg48; $bb $ABC9_SCRIPT synth_ice40 $flags -top mt_tu_sg48; tee -q -o $tmp/$1.stat stat" >"$tmp/$1.log" 2>&1 \
    || { tail -n 20 "$tmp/$1.log" >&2; echo "area_by_module: yosys failed ($1)" >&2; return 1; }
}
figs() { # figs NAME -> "SB_LUT4 FF"
  awk '$1 == "SB_LUT4" { l = $2 } $1 ~ /^SB_DFF/ { f[$1] = $2 } END { s = 0; for (k in f) s += f[k]; print l + 0, s }' "$tmp/$1.stat"
}
jobs_max=${JOBS:-2}
one all "" &
for m in "${mods[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 1; done
  one "$m" "$m" &
done
fail=0
for j in $(jobs -p); do wait "$j" || fail=1; done
[ $fail = 0 ] || exit 1
read -r all_l all_f <<<"$(figs all)"
echo "design $all_l $all_f"
for m in "${mods[@]}"; do
  read -r l f <<<"$(figs "$m")"
  echo "$m $((all_l - l)) $((all_f - f))"
done
