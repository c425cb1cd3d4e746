#!/usr/bin/env bash
# Runs every libFuzzer target for FUZZ_SECONDS (default 5) with a seed corpus built from the
# golden vectors (their streams, and the same streams in .mtr containers), the test programs and
# mtemu's device tree, and a few CSV/HMTT records and option words. Prints PASS/FAIL
# per target; a crash leaves its input in $BUILD/fuzz/ and fails the test.
set -u
BUILD=${BUILD:-build}
secs=${FUZZ_SECONDS:-5}
mkdir -p "$BUILD/fuzz"
fz=$(cd "$BUILD/fuzz" && pwd)
corpus=$fz/corpus
gen=$BUILD/tests/gen_golden
mkdir -p "$corpus/dec" "$corpus/mtr" "$corpus/unit" "$corpus/unit_modes" "$corpus/unit_long" "$corpus/elf" "$corpus/dt" "$corpus/import" "$corpus/cli"
for v in tests/golden/*.vec; do
  b=$(basename "$v" .vec)
  # stream bytes from the .exp file, prefixed with a piece-size byte for fuzz_dec
  { printf '\x07'; grep '^s ' "tests/golden/$b.exp" | cut -c3- | tr -d '\n' | xxd -r -p; } > "$corpus/dec/$b"
  "$gen" "$v" /dev/null /dev/null "$corpus/mtr/$b.mtr" || { echo "FAIL fuzz-corpus ($b)"; exit 1; }
  head -c 4000 "$v" > "$corpus/unit/$b"
  cp "$corpus/unit/$b" "$corpus/unit_modes/$b" # the same items; their writes may reach SPATIAL, REDUCE
  cp "$corpus/unit/$b" "$corpus/unit_long/$b"
done
# unit_long (long busy sessions, never cut): also the busy inputs (a FIFO kept full for 20,000 cycles)
python3 tests/fuzz/busy_inputs.py "$corpus/unit_long" >/dev/null || { echo "FAIL fuzz-corpus (busy_inputs.py)"; exit 1; }
# gdb: a session's worth of packets (tests/gdb/test_gdb.sh speaks the same), one per seed and all
mkdir -p "$corpus/gdb"
pk() { printf '$%s#%02x' "$1" "$(printf '%s' "$1" | od -An -tu1 | tr -s ' ' '\n' | awk '{s+=$1} END {print s % 256}')"; }
i=0
for p in 'qSupported:multiprocess+;swbreak+' 'vMustReplyEmpty' 'QStartNoAckMode' '?' 'qfThreadInfo' 'Hg2' 'g' \
         'G0011223344556677' 'p20' 'P20=0010000000000000' 'm80000000,40' 'M80000000,4:01020304' \
         'X80000010,3:a}]b' 'Z0,80000000,4' 'z0,80000000,4' 'Z2,80000100,8' 'vCont;s:1;c' 'vCont?' 'c' 's' \
         'qXfer:features:read:target.xml:0,ffb' 'qqemu.PhyMemMode' 'Qqemu.PhyMemMode:1' 'qThreadExtraInfo,2' 'D'; do
  pk "$p" >"$corpus/gdb/p$i"; pk "$p" >>"$corpus/gdb/all"; i=$((i + 1))
done
printf '\003+-$m0,4#00' >>"$corpus/gdb/all"
# mtemu's inputs: the test programs (ELF) and the device tree it generates
FWBUILD=${FWBUILD:-build/firmware}
BIN=${BIN:-$BUILD/bin}
# (without their debug sections, which the loader never reads: seq.elf 103 KB -> 18 KB, all under
# fuzz_elf's -max_len below)
for e in "$FWBUILD"/emu/hello.elf "$FWBUILD"/emu/htif.elf "$FWBUILD"/seq.elf; do
  [ -f "$e" ] && riscv64-unknown-elf-objcopy --strip-debug "$e" "$corpus/elf/$(basename "$e")"
done
[ -f "$FWBUILD/emu/hello.elf" ] &&
  "$BIN/mtemu" -q --max-insns 1 --dump-dtb "$corpus/dt/virt.dtb" "$FWBUILD/emu/hello.elf" >/dev/null 2>&1
printf 'ELF' > "$corpus/elf/stub"; printf '\xd0\x0d\xfe\xed' > "$corpus/dt/stub"
# metatrace's imports (first byte: 1 = CSV, 0 = HMTT) and option words (NUL-separated)
printf '\001cycle,address,rw\n10,0x80001000,R\n20,2147491840,W\n' > "$corpus/import/csv"
printf '\001cycle,kind,section,format,rw,address,value\n10,sample,burst,full,R,0x80001000,0\n' > "$corpus/import/csv7"
printf '\000\001\000\000\000\200\040\002\000\000\000\200\040\000\000\000\000\000\000' > "$corpus/import/hmtt"
printf -- '--from\0001000\000--to\0002M\0004K..2M\0001G\00080us\0003GB/s' > "$corpus/cli/roi"
printf -- '--between-markers\0001,2\0004K,64K,2M\0000x80000000' > "$corpus/cli/markers"
# mtemu as a whole: option words, an empty word, guest code (the test programs' text)
mkdir -p "$corpus/mtemu" "$corpus/metatrace"
code=$fz/code.bin
: >"$code"
for e in hello htif idle; do
  [ -f "$FWBUILD/emu/$e.elf" ] && riscv64-unknown-elf-objcopy -O binary -j .text.init "$FWBUILD/emu/$e.elf" "$fz/$e.bin" 2>/dev/null &&
    cat "$fz/$e.bin" >>"$code"
done
i=0
while IFS= read -r words; do
  { printf '%s' "$words" | tr ' ' '\0'; printf '\0\0'; head -c 512 "$code"; } >"$corpus/mtemu/w$i"; i=$((i + 1))
done <<'WORDS'
--stats
--trace t.mtr
--trace t.mtr --trace-mode=reduce --trace-reduce-budget 64K
--trace-all a.mtr --trace-all-kinds load,store --trace-all-ram
--trace t.mtr --trace-unit=both --trace-fifo-depth 64 --trace-rate-h 3
--trace t.mtr --trace-unit=rtl --waves w.fst --waves-to 500
--timing=cache --trace t.mtr --trace-tap dram --trace-fmt-h full
-smp 2 --metapage-budget 64K --metapage-policy clock --backing b
--metapage-size 16K --metapage-budget 128K --metapage-sim 4K..64K:64K..1M:* --stats-json s.json
-m 8M --dump-dtb d.dtb --log-commits --event-hash=7 --ram-hash
--trace t.mtr --trace-start=firmware --trace-thread=off --trace-len-h 1us --trace-len-l 2us
WORDS
# metatrace as a whole: command words, an empty word, the input file's bytes (in.mtr, in.csv, in.hmtt)
mtr1=$(ls "$corpus/mtr"/*.mtr | head -1)
i=0
while IFS= read -r words; do
  for input in "$mtr1" csv hmtt; do
    { printf '%s' "$words" | tr ' ' '\0'; printf '\0\0'
      case $input in csv) tail -c +2 "$corpus/import/csv" ;; hmtt) tail -c +2 "$corpus/import/hmtt" ;; *) cat "$input" ;; esac
    } >"$corpus/metatrace/c$i"; i=$((i + 1))
  done
done <<'WORDS'
info in.mtr --markers 3
decode in.mtr --format csv --from 10 --to 1000000
decode in.mtr --between-markers 1,2 --samples-only
policy in.mtr --budgets 16K,64K --sizes 4K..64K --policies lru,opt,clock --format json
rowbuf in.mtr --mapping xor --banks 4 --format csv
reconstruct in.mtr -o r.mtr --method drift
export in.mtr --to csv -o e.csv
export in.mtr --to hmtt -o e.hmtt --offset 0x80000000
compare in.mtr in.mtr --budgets 16K --sizes 4K
import --from csv in.csv -o i.mtr
import --from hmtt in.hmtt -o i.mtr --ticks-to-cycles 3
size --t 1s --measured in.mtr
WORDS
# fuzz_one TARGET: one libFuzzer run, its PASS/FAIL line; its run count in $fz/fuzz_TARGET.runs.
# The targets run two at a time (tests/lib/jobs.sh; -max_total_time is wall time, and on 2 cores
# each run still has a core of its own), their lines printed in the order below.
fuzz_one() {
  local t=$1 bin=$fz/fuzz_$1 work opts runs cpu
  rm -f "$fz/fuzz_$t.runs"
  [ -x "$bin" ] || { echo "FAIL fuzz_$t (not built)"; return 1; }
  # the run's corpus in tmpfs when there is one, and -reload=0 (its directory is its own): why in
  # tests/fuzz/campaign.sh
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then work=$(mktemp -d -p /dev/shm); else work=$(mktemp -d); fi
  cp "$corpus/$t"/* "$work"/
  # inputs that once failed (tests/fuzz/regress/<target>/): run first, as seeds
  [ -d "tests/fuzz/regress/$t" ] && cp "tests/fuzz/regress/$t"/* "$work"/
  # the CPU time it took (user + system, its threads included): execs per CPU second say what the
  # target costs whatever else the machine runs; execs/s say what a run got
  TIMEFORMAT='%U %S'
  # -timeout is wall time: 30 s, as a run of 0.2 CPU seconds took 10 at a load of 20 (fuzz_metatrace)
  # Longest input per target (libFuzzer's default: 4096 or the largest seed): what a run costs grows
  # with it, what the input can reach does not beyond a point. dec: a stream's packets are a few
  # bytes each; unit: 255 items, several FIFOs' worth of packets (each item runs the model four
  # times); elf: the seeds' headers, program headers and symbol tables.
  # unit: libFuzzer's entropic schedule off: its per-run bookkeeping over fuzz_unit's thousands of
  # features (hit counts of the model's loops) was 40 % of the target's time on a grown corpus,
  # and 150,000 runs from the seeds reach as many edges without it (717 against 705).
  case $t in
    dec) opts=-max_len=1024 ;;
    unit | unit_modes | unit_long) opts="-max_len=1024 -entropic=0" ;;
    elf) opts=-max_len=24576 ;;
    *) opts= ;;
  esac
  if { time (cd "$fz" && nice -n 10 "./fuzz_$t" -max_total_time="$secs" -rss_limit_mb=1024 -timeout=30 -reload=0 $opts \
        -artifact_prefix="$fz/" -print_final_stats=1 "$work" >"$fz/fuzz_$t.log" 2>&1); } 2>"$fz/fuzz_$t.cpu"; then
    runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$fz/fuzz_$t.log" | awk '{print $2}')
    cpu=$(awk '{print $1 + $2}' "$fz/fuzz_$t.cpu")
    echo "PASS fuzz_$t ($runs runs in ${secs}s, $(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$fz/fuzz_$t.log" | awk '{print $2}') execs/s, $(awk -v r="$runs" -v c="$cpu" 'BEGIN { q = 0; if (c > 0) q = r / c; printf "%.0f", q }') per CPU second)"
    echo "${runs:-0}" >"$fz/fuzz_$t.runs"
    rm -rf "$work"
  else
    echo "FAIL fuzz_$t"; tail -n 30 "$fz/fuzz_$t.log"
    rm -rf "$work"; return 1
  fi
}
. "$(dirname "$0")/../lib/jobs.sh"
status=0
targets=${FUZZ_TARGETS:-dec mtr unit unit_modes unit_long elf dt import cli gdb mtemu metatrace}
jobs_begin
# FUZZ_TARGETS picks some (e.g. FUZZ_TARGETS="unit dt" to re-run two after a fix)
for t in $targets; do job fuzz_one "$t"; done
jobs_end || status=1
total=0
for t in $targets; do
  [ -f "$fz/fuzz_$t.runs" ] && total=$((total + $(cat "$fz/fuzz_$t.runs")))
done
echo "fuzz: $total executions in all"
exit $status
