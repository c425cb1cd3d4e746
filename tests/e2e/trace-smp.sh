#!/usr/bin/env bash
# Tracing a multi-hart machine (-smp N, docs/trace-unit.md section 8): the trace unit sees every
# hart's accesses, stamped in the machine's time (each turn starts where the last one ended), so
# the stream never goes back and nothing is skipped for it.  Debian's OpenSBI and Linux on 4 harts,
# to poweroff:
#   trace-smp-invisible    the traced run retires per hart what an untraced run given the same
#                          device tree (with the unit's node) retires: tracing changes nothing
#   trace-smp-stream       samples, none skipped as same-cycle, at most one in 10 000 dropped
#                          (contract v4 drops a capture less than MT_UNIT_PACE cycles after the
#                          last one: 1 of 3 692 313 here with PACE 5, none with PACE 3), every
#                          kept one decoded, cycles increasing (metatrace decode) and reaching
#                          the run's end
#   trace-smp-thread-same  the model on its own thread or in line: the same bytes
#   trace-smp-all          --trace-all records every hart's accesses: its count is the sum of
#                          --stats' per-kind access counts of all harts
#   event-hash-smp         --event-hash on 4 harts: two runs give the same hash
#   trace-invisible-1hart  on 1 hart, in line and with the thread: the traced boot retires the
#                          instructions and takes the cycles of the untraced one (the runs
#                          interpreter's stops, placed for the unit's dues and removed by its slow
#                          paths, leave the count exact: a stop left in place once cost a cycle)
set -u
BIN=${BIN:-build/bin}
MTEMU=$BIN/mtemu
MT=$BIN/metatrace
SBI=${SBI:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin}
IMAGE=build/linux/Image
[ -x "$MTEMU" ] || { echo "skipped: $MTEMU does not exist yet"; exit 77; }
[ -f "$SBI" ] || { echo "FAIL trace-smp: $SBI missing (make deps installs opensbi)"; exit 1; }
[ -f "$IMAGE" ] || { echo "skipped: $IMAGE not built (make linux)"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; fails=$((fails + 1)); }
boot=(-q --stats -smp 4 -m 256M --bios "$SBI" --kernel "$IMAGE" --append 'console=ttyS0 mt.run="poweroff -f"')
run() { # name args...: stderr in $tmp/name.err
  local name=$1; shift
  timeout 300 "$MTEMU" "${boot[@]}" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
}
harts() { grep '^harts ' "$tmp/$1.err"; }

boot1=(-q --stats -m 256M --bios "$SBI" --kernel "$IMAGE" --append 'console=ttyS0 mt.run="poweroff -f"')
run1() { # name args...: one hart; stderr in $tmp/name.err
  local name=$1; shift
  timeout 300 "$MTEMU" "${boot1[@]}" "$@" >/dev/null 2>"$tmp/$name.err" </dev/null
}
# The nine boots go two at a time (tests/lib/jobs.sh), each into its own files; the checks below
# read them in a fixed order.  An untraced run needs its traced run's device tree: each such pair
# is one job.
. "$(dirname "$0")/../lib/jobs.sh"
traced_then_plain() { run traced --trace "$tmp/a.mtr" --dump-dtb "$tmp/unit.dtb"; run plain --dtb "$tmp/unit.dtb"; }
inline1_then_plain1() {
  run1 h1in --trace "$tmp/h1.mtr" --trace-thread=off --dump-dtb "$tmp/unit1.dtb"
  run1 h1un --dtb "$tmp/unit1.dtb"
}
jobs_begin
job traced_then_plain
job inline1_then_plain1
job run inline --trace "$tmp/b.mtr" --trace-thread=off
job run all --trace-all "$tmp/all.mtr"
job run hash1 --event-hash
job run hash2 --event-hash
job run1 h1th --trace "$tmp/h1t.mtr" --trace-thread=on
jobs_end

if [ -n "$(harts traced)" ] && [ "$(harts traced)" = "$(harts plain)" ] &&
   grep -q 'reboot: Power down' "$tmp/traced.out"; then pass trace-smp-invisible
else fail trace-smp-invisible "traced: $(harts traced) / untraced: $(harts plain)"; fi

samples=$(sed -n 's/^trace.samples \([0-9]*\) dropped \([0-9]*\).*/\1 \2/p' "$tmp/traced.err")
skipped=$(sed -n 's/^trace.accesses [0-9]* to the unit, \([0-9]*\) same-cycle skipped/\1/p' "$tmp/traced.err")
"$MT" decode "$tmp/a.mtr" --samples-only >"$tmp/a.txt" 2>"$tmp/dec.err"
order=$(awk 'NR > 1 && $1 <= prev { bad++ } { prev = $1 } END { print bad + 0, NR, prev }' "$tmp/a.txt")
cycles=$(sed -n 's/^cycles *\([0-9]*\).*/\1/p' "$tmp/traced.err")
set -- $samples $order
if [ "${1:-0}" -gt 100000 ] && [ "${2:-1}" -le $((${1:-0} / 10000)) ] && [ "$skipped" = 0 ] && [ "${3:-1}" = 0 ] && [ "${4:-0}" = "$1" ] &&
   [ "${5:-0}" -gt "${cycles:-0}" ]; then pass trace-smp-stream
else fail trace-smp-stream "samples/dropped '$samples', skipped '$skipped', out of order/decoded/last '$order', hart 0 cycles $cycles"; fi

if cmp -s "$tmp/a.mtr" "$tmp/b.mtr"; then pass trace-smp-thread-same; else fail trace-smp-thread-same "the files differ"; fi

# --stats gives the per-kind counts of hart 0 only ("below: hart 0"), and every hart's instructions:
# every hart's fetches (one per instruction) and hart 0's data accesses are a floor the recording
# reaches only with the other harts' accesses in it
total=$(sed -n 's/.*(total \([0-9]*\)).*/\1/p' "$tmp/all.err")
data0=$(awk '$1 ~ /^access\.(load|store|amo|ptw)$/ { s += $2 } END { print s + 0 }' "$tmp/all.err")
got=$("$MT" info "$tmp/all.mtr" 2>/dev/null | sed -n 's/^samples: \([0-9]*\).*/\1/p')
if [ -n "$got" ] && [ -n "$total" ] && [ "$data0" -gt 0 ] && [ "$got" -ge $((total + data0)) ]; then pass trace-smp-all
else fail trace-smp-all "recorded $got, all harts' instructions $total + hart 0's data accesses $data0"; fi

h1=$(grep '^events ' "$tmp/hash1.err"); h2=$(grep '^events ' "$tmp/hash2.err")
if [ -n "$h1" ] && [ "$h1" = "$h2" ]; then pass event-hash-smp; else fail event-hash-smp "'$h1' / '$h2'"; fi
count() { grep -E '^(instructions|cycles) ' "$tmp/$1.err" | tr -s ' ' | tr '\n' ' '; }
if [ -n "$(count h1un)" ] && [ "$(count h1in)" = "$(count h1un)" ] && [ "$(count h1th)" = "$(count h1un)" ] &&
   cmp -s "$tmp/h1.mtr" "$tmp/h1t.mtr"; then pass trace-invisible-1hart
else fail trace-invisible-1hart "traced in line '$(count h1in)', thread '$(count h1th)', untraced '$(count h1un)'"; fi
[ "$fails" -eq 0 ]
