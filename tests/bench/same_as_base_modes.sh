#!/usr/bin/env bash
# same_as_base_modes.sh BASE NEW: two mtemu builds on the reduce and spatial modes' byte-identity
# set (docs/metapaging.md "Recording speed, the page log"), the files they write and --stats
# compared byte for byte: how a change to the page filter, the page log or a filter's recorder
# path that must change no record is checked.  Spatial: every firmware ELF at rates 1, 4, 64 and
# the default (bench ELFs 5 x 10^7 instructions), the Linux workload 10^8 instructions on 1 and 2
# harts; reduce: every firmware ELF at B = 4K, 256K, 1M, 16M and 64M, bench_cpu 3 x 10^7 at the
# same budgets, Linux 10^8 on 1 and 2 harts; the burst trace and --trace-all of a few workloads
# (other listeners of the same filter and interpreter).  Lines that depend on the host (seconds,
# MIPS, the model thread's waits) are left out.  Prints each difference and "N pairs, M differ";
# exit 1 when any differs.  QUICK=1: firmware only (no Linux, no bench ELFs).  About 10 minutes
# of one core with Linux.
. "$(dirname "$0")/same_as_base_lib.sh"
QUICK=${QUICK:-0}

modes() {
  local nm=$1 r b
  shift
  one "$nm.spatial" --stats --trace @F@ --trace-mode spatial "$@"
  for r in 1 4 64; do
    one "$nm.spatial$r" --stats --trace @F@ --trace-mode spatial --trace-spatial-rate $r "$@"
  done
  for b in 4K 256K 1M 16M 64M; do
    one "$nm.reduce$b" --stats --trace @F@ --trace-mode reduce --trace-reduce-budget $b "$@"
  done
}

for e in "$FW"/*.elf; do
  [ -r "$e" ] && modes "$(basename "$e" .elf)" "$e"
done
for e in wss qsort memcpy; do
  one "$e.burst" --stats --trace @F@ "$FW/$e.elf"
  one "$e.all" --stats --trace-all @F@ "$FW/$e.elf"
done
[ "$QUICK" = 1 ] && finish
for e in "$FW"/bench/*.elf; do
  [ -r "$e" ] && modes "$(basename "$e" .elf)" --max-insns 50000000 "$e"
done
for b in 4K 256K 1M 16M 64M; do
  one "bench_cpu.3e7.reduce$b" --stats --trace @F@ --trace-mode reduce --trace-reduce-budget $b \
    --max-insns 30000000 "$FW/bench/bench_cpu.elf"
done
one bench_cpu.burst --stats --trace @F@ --max-insns 30000000 "$FW/bench/bench_cpu.elf"
one bench_cpu.all --stats --trace-all @F@ --max-insns 3000000 "$FW/bench/bench_cpu.elf"
if [ -r "$IMAGE" ] && [ -r "$SBI" ]; then
  for h in 1 2; do
    lx=(-m 256M --smp $h --bios "$SBI" --kernel "$IMAGE"
        --append "console=ttyS0 earlycon=sbi mt.script=worksets.sh mt.scale=1" --max-insns 100000000)
    one "linux$h.spatial" --stats --trace @F@ --trace-mode spatial "${lx[@]}"
    one "linux$h.reduce" --stats --trace @F@ --trace-mode reduce "${lx[@]}"
  done
  one linux1.spatial16 --stats --trace @F@ --trace-mode spatial --trace-spatial-rate 16 -m 256M --bios "$SBI" \
    --kernel "$IMAGE" --append "console=ttyS0 earlycon=sbi mt.script=worksets.sh mt.scale=1" --max-insns 30000000
  one linux1.burst --stats --trace @F@ -m 256M --bios "$SBI" --kernel "$IMAGE" \
    --append "console=ttyS0 earlycon=sbi mt.script=worksets.sh mt.scale=1" --max-insns 30000000
else
  echo "skipped: Linux (needs $IMAGE and $SBI)"
fi
finish
