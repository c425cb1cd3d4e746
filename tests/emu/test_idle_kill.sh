#!/usr/bin/env bash
# "A killed writer loses at most 1 MiB of trace or 1 s of host time" also while the guest idles:
# tests/emu/idle.S makes a trace in well under a second, then waits in WFI for console input
# (a FIFO that never gets EOF), so no access reaches the writers. Killed with -9 once it idles,
# the .partial files must hold what a run ended cleanly (SIGTERM) at the same point holds, but
# for what follows the last SYNC and what the unit's FIFO still held (a sync period and a FIFO:
# 4096 + 4096 bytes of streams of about 200 KB here: under a tenth of the samples). Before the
# idle hook they held the header only.
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
EMU=$BIN/mtemu
idle=$FWBUILD/emu/idle.elf
tmp=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
fails=0
pass() { echo "PASS emu-idle/$1"; }
fail() { echo "FAIL emu-idle/$1: $2"; fails=$((fails + 1)); }
samples() { "$BIN/metatrace" info "$1" 2>/dev/null | sed -n 's/^samples: \([0-9]*\).*/\1/p'; }

mkfifo "$tmp/in"
exec 3<>"$tmp/in" # read-write: the console never sees EOF, so the guest waits for ever
# the three runs side by side: the model on its thread, in line with --trace-all, and the reference
( exec "$EMU" -q --trace-thread=on --trace "$tmp/thr.mtr" "$idle" <&3 >/dev/null 2>"$tmp/thr.err" ) &
pids+=($!)
( exec "$EMU" -q --trace-thread=off --trace "$tmp/inl.mtr" --trace-all "$tmp/all.mtr" "$idle" <&3 >/dev/null 2>"$tmp/inl.err" ) &
pids+=($!)
# (timeout passes the SIGTERM on; it ends a run that does not hear it: emu/cpu/cpu.c wfi_wait
# once spun for ever when no timer was set)
timeout 30 "$EMU" -q --trace "$tmp/ref.mtr" --trace-all "$tmp/refall.mtr" "$idle" <&3 >/dev/null 2>"$tmp/ref.err" &
pids+=($!)
# kill once all five .partial files have grown past its header and stayed the same size for 1.5 s (the
# guest idles: its last tail is written), or after 20 s (a slow machine, an ASan build)
prev='' stable=0
for _ in $(seq 1 40); do
  sleep 0.5
  # (the reference's files too: on a loaded machine it may start last)
  sizes=$(stat -c %s "$tmp/thr.mtr.partial" "$tmp/inl.mtr.partial" "$tmp/all.mtr.partial" \
          "$tmp/ref.mtr.partial" "$tmp/refall.mtr.partial" 2>/dev/null | tr '\n' ' ')
  if [ "$sizes" = "$prev" ]; then stable=$((stable + 1)); else stable=0; fi
  prev=$sizes
  grown=1
  [ "$(echo $sizes | wc -w)" -eq 5 ] || grown=0
  for z in $sizes; do [ "$z" -gt 1000 ] || grown=0; done
  [ $grown -eq 1 ] && [ $stable -ge 3 ] && break
done
kill -9 "${pids[0]}" "${pids[1]}"
kill -TERM "${pids[2]}"
wait "${pids[0]}" "${pids[1]}" 2>/dev/null
wait "${pids[2]}"; rc_ref=$?
pids=()
exec 3>&-
ref=$(samples "$tmp/ref.mtr")
refall=$(samples "$tmp/refall.mtr")
if [ $rc_ref -eq 143 ] && [ -n "$ref" ] && [ "$ref" -gt 10000 ] && [ -n "$refall" ] && [ "$refall" -gt 300000 ]; then pass reference-run
else fail reference-run "SIGTERM run, exit $rc_ref: '$ref' unit samples, '$refall' --trace-all samples: $(cat "$tmp/ref.err")"; fi
check() { # NAME FILE REFERENCE
  local n
  n=$(samples "$2")
  if [ ! -e "${2%.partial}" ] && [ -n "$n" ] && [ -n "$3" ] && [ "$n" -le "$3" ] && [ $((10 * ($3 - n))) -lt "$3" ]; then
    pass "$1 ($n of $3 samples)"
  else
    fail "$1" "$2: '$n' samples recovered of '$3': $("$BIN/metatrace" info "$2" 2>&1 | head -3)"
  fi
}
check kill-9-idle-thread "$tmp/thr.mtr.partial" "$ref"
check kill-9-idle-inline "$tmp/inl.mtr.partial" "$ref"
check kill-9-idle-trace-all "$tmp/all.mtr.partial" "$refall"

# the same stop request twice (timeout(1) signals its child and then its process group; the
# reference run above got both): the second, sent at once, must not kill the run mid-finish (with
# SA_RESETHAND it did, in 3 of 3 runs)
exec 3<>"$tmp/in"
"$EMU" -q --trace "$tmp/dbl.mtr" --trace-all "$tmp/dblall.mtr" "$idle" <&3 >/dev/null 2>"$tmp/dbl.err" &
pids=($!)
for _ in $(seq 1 40); do
  sleep 0.5
  z=$(stat -c %s "$tmp/dbl.mtr.partial" 2>/dev/null || echo 0)
  [ "$z" -gt 1000 ] && break
done
kill -TERM "${pids[0]}"; kill -TERM "${pids[0]}" 2>/dev/null
wait "${pids[0]}"; rc_dbl=$?
pids=()
exec 3>&-
dbl=$(samples "$tmp/dbl.mtr")
dblall=$(samples "$tmp/dblall.mtr")
if [ $rc_dbl -eq 143 ] && [ -n "$dbl" ] && [ "$dbl" -gt 10000 ] && [ -n "$dblall" ] && [ "$dblall" -gt 300000 ]; then pass "sigterm-twice ($dbl samples)"
else fail sigterm-twice "exit $rc_dbl, '$dbl' unit samples, '$dblall' --trace-all samples: $(ls "$tmp") $(cat "$tmp/dbl.err")"; fi
exit $((fails > 0))
