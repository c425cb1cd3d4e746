#!/usr/bin/env bash
# make bench-linux100 (issue #24): the 100 s Linux workload (OpenSBI + build/linux/Image running
# `mt.script=worksets.sh mt.scale=35`, 102 emulated seconds, docs/firmware.md) untraced and
# traced at the seed's parameters (`--trace F.mtr` and nothing else: burst mode, r_h 24, r_l 2048,
# 1 s bursts every 10 s, the model on its own thread when the process may use 2+ CPUs), both
# stopped at the same instruction count. The untraced run is given the traced run's device tree
# (--dtb; it lists the trace unit, which the kernel parses: 0.34 M more instructions at boot), so
# both run the same guest instructions, which the script checks. Prints per run: instructions,
# emulated seconds, wall and CPU seconds (user + sys of the process, both threads), MIPS, and for
# the traced run the trace's bytes, samples and samples dropped (mtemu --stats); then the traced /
# untraced ratios and the wall time projected for the whole workload against the goal (<= 3.5 min
# wall on 2 cores). mtemu's progress lines go to stderr as the runs go.
#
#   LINUX100_FRACTION  the share of the workload's instructions to run: a decimal in (0, 1], or
#                      `full` (= 1: to the guest's poweroff, the script's checksum compared
#                      between the two runs). Default 0.2: about 20 emulated s, two whole periods of
#                      the seed's 1 s burst + 9 s span (so the share of the dense burst is the
#                      whole run's), 1-2 minutes on an idle 2-core machine. Below 1 the
#                      projection is extrapolated from the run's share of the instructions and
#                      the line says so.
#   LINUX100_REPEAT    runs of each (1..9, default 1); the medians are printed.
#   LINUX_IMAGE, OPENSBI  the kernel and firmware (defaults build/linux/Image, Debian's fw_jump.bin);
#                      a missing one is a named skip (exit 0: `make bench` goes on).
#   BIN                where mtemu is (build/bin).
# Exit: 0 measured or skipped; 1 a run failed; 2 a bad variable.
set -u
BIN=${BIN:-build/bin}
EMU=$BIN/mtemu
LINUX_IMAGE=${LINUX_IMAGE:-build/linux/Image}
OPENSBI=${OPENSBI:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin}
FRACTION=${LINUX100_FRACTION:-0.2}
REPEAT=${LINUX100_REPEAT:-1}
SCALE=35
APPEND="console=ttyS0 earlycon=sbi mt.script=worksets.sh mt.scale=$SCALE"
# The whole workload, measured to its poweroff on mtemu with the traced run's device tree
# (LINUX100_FRACTION=full; docs/emulator.md, "100 s of traced Linux"): the run is deterministic,
# so these hold for any build that executes the same guest and device tree.
FULL_INSNS=75206178870
FULL_SECONDS=102.02
GOAL_WALL=210 # 3.5 min

die() { echo "bench-linux100: $*" >&2; exit 2; }
case $FRACTION in
  full) FRACTION=1 ;;
  1 | 1.0*) [[ $FRACTION =~ ^1(\.0*)?$ ]] || die "LINUX100_FRACTION=$FRACTION: not a decimal in (0, 1] or 'full'"; FRACTION=1 ;;
  *) [[ $FRACTION =~ ^0?\.[0-9]+$ ]] && awk -v f="$FRACTION" 'BEGIN { exit !(f > 0) }' ||
       die "LINUX100_FRACTION=$FRACTION: not a decimal in (0, 1] or 'full'" ;;
esac
[[ $REPEAT =~ ^[1-9]$ ]] || die "LINUX100_REPEAT=$REPEAT: not a whole number from 1 to 9"
[ -x "$EMU" ] || { echo "bench-linux100: $EMU missing (make)" >&2; exit 1; }
if [ ! -f "$LINUX_IMAGE" ]; then echo "bench-linux100: skipped: no Linux image $LINUX_IMAGE (make linux)"; exit 0; fi
if [ ! -f "$OPENSBI" ]; then echo "bench-linux100: skipped: no OpenSBI $OPENSBI (apt-get install opensbi)"; exit 0; fi

full=0
if [ "$FRACTION" = 1 ]; then full=1 limit=(); insns_goal=$FULL_INSNS
else
  insns_goal=$(awk -v f="$FRACTION" -v n="$FULL_INSNS" 'BEGIN { printf "%.0f", f * n }')
  [ "$insns_goal" -gt 0 ] || die "LINUX100_FRACTION=$FRACTION: less than one instruction"
  limit=(--max-insns "$insns_goal")
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-linux100.XXXXXX")
child=
# (the run's mtemu is the child of the subshell that times it: both are stopped)
cleanup() { [ -n "$child" ] && { pkill -TERM -P "$child"; kill "$child"; } 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# the device tree of a traced run, for the untraced ones
"$EMU" -q --max-insns 1 --trace "$tmp/dtb.mtr" --dump-dtb "$tmp/traced.dtb" --bios "$OPENSBI" --kernel "$LINUX_IMAGE" \
  --append "$APPEND" >/dev/null 2>"$tmp/dtb.err" </dev/null || { echo "bench-linux100: mtemu --dump-dtb failed:"; cat "$tmp/dtb.err"; exit 1; }

# run_once LABEL N ARGS...: one run of mtemu; its progress lines go to stderr as it runs;
# leaves $tmp/LABEL.N.{out,err,time}
run_once() {
  local label=$1 n=$2; shift 2
  local base=$tmp/$label.$n
  : >"$base.err" # before tail follows it (the run may not have opened it yet)
  ( TIMEFORMAT='%R %U %S'; time "$EMU" --stats "$@" "${limit[@]}" --bios "$OPENSBI" --kernel "$LINUX_IMAGE" \
      --append "$APPEND" >"$base.out" 2>"$base.err" </dev/null ) 2>"$base.time" &
  child=$!
  # in the background, so that a TERM is acted on at once (the shell's `wait` is interruptible;
  # a foreground pipeline would hold the trap until the run ends); tail ends with the run
  tail -n +1 -s 1 -f --pid="$child" "$base.err" 2>/dev/null | grep --line-buffered '^mtemu: [0-9.]* G instructions' |
    sed -u "s/^mtemu:/  $label run $n:/" >&2 &
  local follower=$!
  wait "$child"; local rc=$?
  child=
  wait "$follower"
  if [ "$rc" -ne 0 ]; then
    echo "bench-linux100: the $label run exited with $rc:"; tail -n 5 "$base.err" "$base.out"; return 1
  fi
  if [ $full = 1 ] && ! grep -q "worksets: scale $SCALE checksum" "$base.out"; then
    echo "bench-linux100: the $label run did not finish the workload:"; tail -n 5 "$base.out"; return 1
  fi
}

# facts LABEL N: "insns emulated_s wall cpu samples dropped unit_bytes file_bytes model_cpu checksum"
facts() {
  local base=$tmp/$1.$2 fb=0 sum
  [ -f "$tmp/$1.$2.mtr" ] && fb=$(stat -c %s "$tmp/$1.$2.mtr")
  sum=$(sed -n "s/.*worksets: scale $SCALE checksum \([0-9a-f]*\).*/\1/p" "$base.out" | tail -n 1)
  awk -v fb="$fb" -v sum="${sum:--}" '
    FILENAME ~ /time$/ { wall = $1; cpu = $2 + $3; next }
    $1 == "instructions" { n = $2 }
    $1 == "mtime" { e = $3; gsub(/[(]/, "", e) }
    $1 == "trace.samples" { s = $2; d = $4; b = $6 }
    $1 == "trace.thread" { for (i = 1; i < NF; i++) if ($(i + 1) == "s" && $(i + 2) == "CPU") mc = $i }
    END { printf "%s %s %s %.2f %s %s %s %s %s %s\n", n, e, wall, cpu, s + 0, d + 0, b + 0, fb, mc + 0, sum }
  ' "$base.time" "$base.err"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# med LABEL FIELD: the median of FIELD over the runs of LABEL
med() { for i in $(seq "$REPEAT"); do facts "$1" "$i" | awk -v f="$2" '{ print $f }'; done | median; }

load=$(cut -d' ' -f1-3 /proc/loadavg)
if [ $full = 1 ]; then what="the whole workload, to its poweroff"
else what="$FRACTION of its instructions: --max-insns $insns_goal"; fi
echo "bench-linux100: $APPEND (the 100 s workload), $what; $REPEAT run(s) each, medians; load average $load at the start"
for i in $(seq "$REPEAT"); do
  run_once untraced "$i" --dtb "$tmp/traced.dtb" || exit 1
  run_once traced "$i" --trace "$tmp/traced.$i.mtr" || exit 1
done

# the same device tree, the same guest: the same instruction count (and at the poweroff, checksum)
u=($(facts untraced 1)); t=($(facts traced 1))
if [ "${u[0]}" != "${t[0]}" ] || [ "${u[9]}" != "${t[9]}" ]; then
  echo "bench-linux100: the runs differ: untraced ${u[0]} instructions (checksum ${u[9]}), traced ${t[0]} (${t[9]})"
  exit 1
fi
insns=${u[0]} emu_s=${u[1]}
if [ $full = 0 ] && [ "$insns" != "$insns_goal" ]; then
  echo "bench-linux100: the guest stopped at $insns instructions, before --max-insns $insns_goal: $LINUX_IMAGE is not the"
  echo "  image whose workload was measured at $FULL_INSNS instructions (LINUX100_FRACTION=full measures this one)"
  exit 1
fi
uw=$(med untraced 3) uc=$(med untraced 4) tw=$(med traced 3) tc=$(med traced 4) mc=$(med traced 9)
printf '%-9s | %14s | %10s | %8s | %8s | %6s | %12s | %12s | %9s | %7s\n' run instructions "emulated s" "wall s" "CPU s" \
  MIPS "trace bytes" "packet bytes" samples dropped
row() { # label wall cpu [samples dropped packet_bytes file_bytes]
  printf '%-9s | %14s | %10s | %8s | %8s | %6.0f | %12s | %12s | %9s | %7s\n' "$1" "$insns" "$emu_s" "$2" "$3" \
    "$(awk -v n="$insns" -v w="$2" 'BEGIN { print (w > 0 ? n / w / 1e6 : 0) }')" "${7:--}" "${6:--}" "${4:--}" "${5:--}"
}
row untraced "$uw" "$uc"
row traced "$tw" "$tc" "${t[4]}" "${t[5]}" "${t[6]}" "${t[7]}"
[ $full = 1 ] && echo "checksum: ${u[9]} in both runs"
threaded=0; grep -q '^trace.thread ' "$tmp/traced.1.err" && threaded=1
awk -v uw="$uw" -v uc="$uc" -v tw="$tw" -v tc="$tc" -v mc="$mc" -v th=$threaded 'BEGIN {
  printf "traced / untraced: wall %.2fx, CPU %.2fx (untraced / traced speed: wall %.2fx, CPU %.2fx)\n", tw / uw, tc / uc, uw / tw, uc / tc
  if (th) printf "traced CPU %.2f s = the emulator'"'"'s thread %.2f s + the model'"'"'s thread (model, .mtr writer, zstd) %.2f s\n", tc, tc - mc, mc
  else printf "traced CPU %.2f s, the model in line (--trace-thread off: the process may use one CPU)\n", tc }'
awk -v full=$full -v n="$insns" -v N="$FULL_INSNS" -v e="$emu_s" -v E="$FULL_SECONDS" -v tw="$tw" -v tc="$tc" \
    -v uw="$uw" -v uc="$uc" -v g=$GOAL_WALL -v load="$load" 'BEGIN {
  k = full ? 1 : N / n
  how = full ? "measured, the whole workload" : sprintf("extrapolated from %.3g of %.0f s (%.3g%% of the instructions)", e, E, 100 * n / N)
  printf "the 100 s workload traced: %.0f s wall, %.0f s CPU (untraced %.0f s wall, %.0f s CPU); %s\n", tw * k, tc * k, uw * k, uc * k, how
  w = tw * k
  printf "goal <= %d s wall on 2 cores: %s (load average %s at the start; wall time is only meaningful on an idle machine)\n",
    g, w <= g ? sprintf("met, %.0f s to spare", g - w) : sprintf("missed by %.0f s (%.2fx the goal)", w - g, w / g), load }'
