#!/usr/bin/env bash
# The reduce path's area by function (docs/trace-unit-rtl.md "The reduce path", Area): the path
# (mt_tu_rdpath over mt_tu_reduce) synthesised out of context as the docs' Area figure is, once as
# it is and once per variant that shrinks one dimension of it.  A variant is not a working design
# (it changes the contract: a narrower sequence number wraps, a shorter queue loses more); the
# drop in SB_LUT4 says what that dimension costs, which is where a cut would have to come from.
# The path's own parameters are set with chparam; the filter's fixed widths (its sequence numbers
# and cycles, the sizes) are edited in a copy of mt_tu_reduce.sv, and the edit is checked to have
# taken (a changed RTL line makes the script fail rather than measure the unedited path).
#   rd_area.sh [VARIANT...]   (default: all; names below)
# LGK (default 6): the path's LgKMax, as the docs' figure.  JOBS yosys runs at a time (default 2).
# Prints "variant SB_LUT4 FF SB_CARRY SB_RAM40_4K dLUT4" rows, the path as it is first.  About 30 s
# of CPU per run.
set -euo pipefail
cd "$(dirname "$0")/../.."
. rtl_model/synth/flow.sh
lgk=${LGK:-6}
# name | what it shrinks | sed on mt_tu_reduce.sv | chparam on mt_tu_rdpath
variants=(
  "seq24|sequence numbers and cycles 48 -> 24 bits|s/SW = 48 /SW = 24 /|"
  "seq16|sequence numbers and cycles 48 -> 16 bits|s/SW = 48 /SW = 16 /|"
  "nocycle|cycles tied to 0 (the unit does not use a record's cycle)||NOCYCLE"
  "q4|reference queue 8 -> 4 entries||-set LgQ 2"
  "w16|window 64 -> 16 slots||-set LgW 4"
  "sizes5|sizes 10 -> 5 (per-size state and its selects)|s/Sizes = 10;/Sizes = 5;/|"
  "lgk2|LgKMax 6 -> 2 (entries 256 -> 16 addresses)||LGK2"
)
want=("$@")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
one() { # one NAME SED CHPARAM
  local d=$tmp/$1 l=$lgk cp=${3:-}
  mkdir -p "$d"
  cp rtl_model/rtl/mt_tu_reduce.sv rtl_model/rtl/mt_tu_rdpath.sv "$d/"
  if [ -n "$2" ]; then
    sed -i -e "$2" "$d/mt_tu_reduce.sv"
    if cmp -s "$d/mt_tu_reduce.sv" rtl_model/rtl/mt_tu_reduce.sv; then
      echo "rd_area: variant $1: the edit '$2' matched nothing in mt_tu_reduce.sv" >&2; return 1
    fi
  fi
  case $cp in
    NOCYCLE) cp=; sed -i -e "s/\.acc_cycle_i (cycle_i)/.acc_cycle_i (48'd0)/" "$d/mt_tu_rdpath.sv"
             ! cmp -s "$d/mt_tu_rdpath.sv" rtl_model/rtl/mt_tu_rdpath.sv \
               || { echo "rd_area: variant $1: the cycle input not found in mt_tu_rdpath.sv" >&2; return 1; } ;;
    LGK2) cp=; l=2 ;;
  esac
  yosys -q -p "read_verilog -sv -DMT_TU_ICE40 rtl_model/rtl/mt_tu_pkg.sv $d/mt_tu_rdpath.sv $d/mt_tu_reduce.sv rtl_model/rtl/mt_tu_modereg.sv rtl_model/rtl/mt_tu_ram.sv rtl_model/rtl/mt_tu_spram.sv; chparam -set LgKMax $l $cp mt_tu_rdpath; $ABC9_SCRIPT synth_ice40 -abc9 -device u -top mt_tu_rdpath; tee -q -o $d/stat stat" >"$d/log" 2>&1 \
    || { tail -n 20 "$d/log" >&2; echo "rd_area: yosys failed ($1)" >&2; return 1; }
}
figs() { # figs NAME -> "SB_LUT4 FF SB_CARRY SB_RAM40_4K"
  awk '$1 == "SB_LUT4" { l = $2 } $1 ~ /^SB_DFF/ { f[$1] = $2 } $1 == "SB_CARRY" { c = $2 }
       $1 == "SB_RAM40_4K" { r = $2 } END { s = 0; for (k in f) s += f[k]; print l + 0, s, c + 0, r + 0 }' "$tmp/$1/stat"
}
jobs_max=${JOBS:-2}
one path "" "" &
run=()
for v in "${variants[@]}"; do
  IFS='|' read -r name what sedexpr chp <<<"$v"
  if [ ${#want[@]} -gt 0 ] && ! printf '%s\n' "${want[@]}" | grep -qx "$name"; then continue; fi
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do sleep 1; done
  one "$name" "$sedexpr" "$chp" &
  run+=("$name|$what")
done
fail=0
for j in $(jobs -p); do wait "$j" || fail=1; done
[ $fail = 0 ] || exit 1
read -r bl bf bc br <<<"$(figs path)"
echo "path $bl $bf $bc $br 0 (mt_tu_rdpath, LgKMax $lgk, W 64, Q 8, 64 records)"
for r in "${run[@]}"; do
  IFS='|' read -r name what <<<"$r"
  read -r l f c b <<<"$(figs "$name")"
  echo "$name $l $f $c $b $((l - bl)) ($what)"
done
