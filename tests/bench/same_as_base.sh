#!/usr/bin/env bash
# same_as_base.sh BASE NEW: two mtemu builds on every workload and recorder, stdout and the files
# they write compared byte for byte: how an interpreter change that must change no access, cycle
# or trace is checked (docs/emulator.md "Measured", issue #24).  Per workload: --stats with
# --event-hash=24, the burst trace (--trace), the reduce trace, the every-access trace
# (--trace-all, first 2 x 10^7 instructions) and the online LRU truth (--metapage-sim ...
# --stats-json); bench_cpu whole under each timing; Linux worksets (10^8 instructions) on 1 and
# 2 harts.  Lines that depend on the host's scheduling (the model thread's waits, the progress
# line) are left out of the comparison.  Prints each difference and "N pairs, M differ"; exit 1
# when any differs.  Takes a few minutes on an idle core (the every-access traces most).
. "$(dirname "$0")/same_as_base_lib.sh"
modes() {
  local nm=$1
  shift
  one "$nm.stats" --stats --event-hash=24 "$@"
  one "$nm.trace" --stats --trace @F@ "$@"
  one "$nm.reduce" --stats --trace @F@ --trace-mode reduce "$@"
  one "$nm.all" --stats --trace-all @F@ --max-insns 20000000 "$@"
  one "$nm.meta" --stats --metapage-sim 4K..2M:1M..64M:lru --stats-json @F@ "$@"
}

for e in "$FW"/*.elf "$FW"/diff/*.elf "$FW"/e2e/straddle_guest.elf; do
  [ -r "$e" ] && modes "$(basename "$e" .elf)" "$e"
done
for e in "$FW"/bench/bench_cpu.elf "$FW"/bench/bench_mem.elf; do
  [ -r "$e" ] && modes "$(basename "$e" .elf)" --max-insns 100000000 "$e"
done
# a self-jump that straddles two pages runs until stopped
[ -r "$FW/e2e/straddle_self.elf" ] && modes straddle_self --max-insns 2000000 "$FW/e2e/straddle_self.elf"
if [ -r "$FW/bench/bench_cpu.elf" ]; then
  one bench_cpu.whole --stats --event-hash=24 "$FW/bench/bench_cpu.elf"
  for t in simple none; do
    one "bench_cpu.whole.$t" --stats --event-hash=24 --timing=$t "$FW/bench/bench_cpu.elf"
  done
  one bench_cpu.cache --stats --event-hash=24 --timing=cache --max-insns 20000000 "$FW/bench/bench_cpu.elf"
fi
if [ -r "$IMAGE" ] && [ -r "$SBI" ]; then
  for h in 1 2; do
    modes "linux$h" -m 256M --smp $h --bios "$SBI" --kernel "$IMAGE" \
      --append "console=ttyS0 earlycon=sbi mt.script=worksets.sh mt.scale=1" --max-insns 100000000
  done
else
  echo "skipped: Linux (needs $IMAGE and $SBI)"
fi
finish
