#!/usr/bin/env bash
# mtemu's command line: bad input gives one clear line and a non-zero exit; exit codes and
# console output of UART/finisher and HTIF programs (and the same on QEMU when it is there);
# determinism: two runs give the same instruction count, cycles and access-event hash.
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
EMU=$BIN/mtemu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { echo "PASS emu-cli/$1"; }
fail() { echo "FAIL emu-cli/$1: $2"; fails=$((fails + 1)); }

# expect_error NAME PATTERN ARGS...: non-zero exit, exactly one line on stderr matching PATTERN
expect_error() {
  local name=$1 pat=$2; shift 2
  local out rc
  out=$("$EMU" "$@" 2>&1 >/dev/null </dev/null); rc=$?
  if [ "$rc" -ne 0 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && grep -q -- "$pat" <<<"$out"; then
    pass "$name"
  else
    fail "$name" "exit $rc, stderr: $out"
  fi
}

hello=$FWBUILD/emu/hello.elf
htif=$FWBUILD/emu/htif.elf
printf 'not an elf\n' >"$tmp/text.bin"
cp "$hello" "$tmp/elf32.elf" && printf '\001' | dd of="$tmp/elf32.elf" bs=1 seek=4 conv=notrunc 2>/dev/null

expect_error missing-file "nosuch.elf" "$tmp/nosuch.elf"
expect_error not-elf "not an ELF" "$tmp/text.bin"
expect_error x86-elf "not a little-endian RISC-V" /bin/true
expect_error elf32 "not a 64-bit" "$tmp/elf32.elf"
expect_error outside-ram "outside RAM" -m 2M "$FWBUILD/bench/bench_mem.elf"
expect_error unknown-option "unknown option --frobnicate" --frobnicate "$hello"
expect_error bad-size "not a size" -m lots "$hello"
expect_error bad-timing "unknown timing model" --timing=quantum "$hello"
expect_error no-program "no program" -m 64M
# a trap handler that traps itself (zeros at the reset vector: illegal instruction, mtvec = 0,
# no memory there) retires nothing, so --max-insns cannot end it: mtemu stops and says where
head -c 4 /dev/zero >"$tmp/zeros.bin"
: >"$tmp/empty.bin"
expect_error trap-storm "hart 0 is stuck: [0-9]* traps in a row without retiring an instruction, the last at pc 0x0 (cause 1" \
  -m 64M --max-insns 100 --bios "$tmp/zeros.bin"
expect_error trap-storm-smp "hart [01] is stuck" -m 64M -smp 2 --bios "$tmp/zeros.bin"
expect_error empty-bios "empty.bin: empty file" -m 64M --bios "$tmp/empty.bin"
# an output that names an input or another output is refused before anything is opened (a
# --trace over the program used to truncate it before it was loaded)
cp "$hello" "$tmp/prog.elf"
expect_error trace-over-program "trace $tmp/prog.elf: that is the program: it would be overwritten" \
  --trace "$tmp/prog.elf" "$tmp/prog.elf"
if cmp -s "$hello" "$tmp/prog.elf"; then pass trace-over-program-intact; else fail trace-over-program-intact "the program changed"; fi
expect_error two-outputs-one-file "the same file for two outputs" --trace "$tmp/t.mtr" --trace-all "$tmp/./t.mtr" "$hello"
ln -s "$tmp/prog.elf" "$tmp/link.elf"
expect_error backing-over-program "backing $tmp/link.elf: that is the program" --backing "$tmp/link.elf" \
  --metapage-budget 4M "$tmp/prog.elf"
expect_error signature-over-bios "signature $tmp/zeros.bin: that is the --bios file" --signature "$tmp/zeros.bin" \
  -m 64M --bios "$tmp/zeros.bin"
# a long --append (70,000 bytes, past the first 64 KiB blob) gets a larger device tree
long_args=$(head -c 70000 /dev/zero | tr '\0' 'x')
"$EMU" -q --dump-dtb "$tmp/long.dtb" --append "$long_args" "$hello" >/dev/null 2>"$tmp/long.err"; rc_long=$?
"$EMU" -q "$hello" >/dev/null 2>&1; rc_short=$?
if [ $rc_long -eq $rc_short ] && [ ! -s "$tmp/long.err" ] && [ "$(wc -c <"$tmp/long.dtb")" -gt 70000 ]; then
  pass long-append
else fail long-append "exit $rc_long (normally $rc_short): $(head -2 "$tmp/long.err")"; fi
# a full disk (/dev/full, where it is the device): every output says so and exits non-zero, and a
# failed output that is not a regular file is left alone (an unlink of it as root deletes the node)
if [ -c /dev/full ]; then
  expect_error full-trace "/dev/full: write failed: No space left on device" --trace /dev/full "$hello"
  expect_error full-dtb "cannot write the device tree: /dev/full: write failed: No space left on device" --dump-dtb /dev/full "$hello"
  out=$("$EMU" -q "$hello" 2>&1 >/dev/full </dev/null); rc=$?
  if [ $rc -ne 0 ] && grep -q "console output: write error: No space left on device" <<<"$out"; then pass full-console
  else fail full-console "exit $rc: $out"; fi
  if [ -c /dev/full ]; then pass full-device-kept; else fail full-device-kept "/dev/full is no longer a device"; fi
fi
# a full disk for regular files (a file-size limit; SIGXFSZ ignored so that writes fail with EFBIG):
# one line naming the option, exit 1 (an output failure, not a bad option), and no file left,
# neither the output nor its .partial; the message names only the options given
qsort=$FWBUILD/qsort.elf
d=$(mktemp -d)
for opt in --trace --trace-all; do
  out=$( (trap '' XFSZ; ulimit -f 16; "$EMU" -q $opt "$d/t.mtr" "$qsort") 2>&1 >/dev/null </dev/null); rc=$?
  other=--trace-all; [ $opt = --trace-all ] && other=--trace
  if [ $rc -eq 1 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] && grep -q -- "^mtemu: $opt: .*t.mtr: write failed: File too large" <<<"$out" &&
     ! grep -q -- "$other[: ]" <<<"$out" && [ ! -e "$d/t.mtr" ] && [ ! -e "$d/t.mtr.partial" ]; then pass "full-disk$opt"
  else fail "full-disk$opt" "exit $rc, stderr: $out, files: $(ls "$d")"; fi
done
out=$( (trap '' XFSZ; ulimit -f 16; "$EMU" -q --trace "$d/t.mtr" --trace-all "$d/a.mtr" "$qsort") 2>&1 >/dev/null </dev/null); rc=$?
if [ $rc -eq 1 ] && [ -z "$(ls "$d")" ]; then pass full-disk-both-removed; else fail full-disk-both-removed "exit $rc, $(ls "$d")"; fi
# kill -9 of a run whose whole trace fits in one frame (qsort at 1/2400 cycles: about 200 KB per
# 4M elements): the tail written every second of host time keeps what came before the kill
"$EMU" -q --trace "$d/k.mtr" --trace-rate-h 2400 --append "size=16M iters=1" "$qsort" >/dev/null 2>&1 </dev/null &
kpid=$!
sleep 2.5
kill -9 $kpid 2>/dev/null; wait $kpid 2>/dev/null
n=$("$BIN/metatrace" info "$d/k.mtr.partial" 2>/dev/null | sed -n 's/^samples: \([0-9]*\).*/\1/p')
if [ ! -e "$d/k.mtr" ] && [ -n "$n" ] && [ "$n" -gt 0 ]; then pass kill-9-keeps-tail
else fail kill-9-keeps-tail "samples in k.mtr.partial: '$n'; $(ls "$d")"; fi
rm -rf "$d"
if true; then :
fi
# --dtb: a file that is not one whole device tree is refused before the guest sees it (a blob
# with bytes after its total size is taken, as QEMU takes it)
"$EMU" -q --max-insns 1 --dump-dtb "$tmp/virt.dtb" "$hello" >/dev/null 2>&1
head -c 1000 "$tmp/virt.dtb" >"$tmp/cut.dtb"
{ cat "$tmp/virt.dtb"; printf 'padding'; } >"$tmp/padded.dtb"
expect_error dtb-not-fdt "hello.elf: not a device tree blob (FDT_ERR_BADMAGIC)" --dtb "$hello" "$hello"
expect_error dtb-short "text.bin: 11 bytes: too short for a device tree" --dtb "$tmp/text.bin" "$hello"
expect_error dtb-cut "cut.dtb: not a whole device tree (its header says [0-9]* bytes, the file has 1000)" \
  --dtb "$tmp/cut.dtb" "$hello"
"$EMU" -q --dtb "$tmp/padded.dtb" "$hello" >"$tmp/padded.out" 2>&1; rc_padded=$?
"$EMU" -q "$hello" >"$tmp/plain.out" 2>&1; rc_plain=$?
if [ $rc_padded -eq $rc_plain ] && cmp -s "$tmp/padded.out" "$tmp/plain.out"; then pass dtb-padded
else fail dtb-padded "exit $rc_padded/$rc_plain: $(head -2 "$tmp/padded.out")"; fi
# a property 4 GiB - 12 bytes long: libfdt 1.6.1's tag walk stood still on it and the check never
# ended, deaf to SIGTERM (fuzz_dt); refused now (KILL after 20 s: a regression fails, not hangs)
printf '\xd0\x0d\xfe\xed\0\0\0\x58\0\0\0\x38\0\0\0\x54\0\0\0\x28\0\0\0\x11\0\0\0\x10\0\0\0\0\0\0\0\x02\0\0\0\x1c' >"$tmp/loop.dtb"
printf '\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0' >>"$tmp/loop.dtb"                     # memory reservations: none
printf '\0\0\0\x01\0\0\0\0\0\0\0\x03\xff\xff\xff\xf4\0\0\0\0' >>"$tmp/loop.dtb" # root node, the property
printf '\0\0\0\x02\0\0\0\x09a\0\0\0' >>"$tmp/loop.dtb"                               # end node, end, strings
out=$(timeout -s KILL 20 "$EMU" -q --dtb "$tmp/loop.dtb" "$hello" 2>&1 >/dev/null </dev/null); rc=$?
if [ $rc -eq 2 ] && [ "$out" = "mtemu: $tmp/loop.dtb: not a device tree blob (FDT_ERR_BADSTRUCTURE)" ]; then pass dtb-loop
else fail dtb-loop "exit $rc, stderr: $out"; fi
expect_error kernel-missing "nosuch-kernel" --kernel "$tmp/nosuch-kernel"

# finisher exit code and UART output
out=$("$EMU" -q "$hello" </dev/null 2>"$tmp/err"); rc=$?
if [ "$rc" -eq 3 ] && [ "$out" = "hello from mtemu" ]; then pass finisher-exit-code; else fail finisher-exit-code "exit $rc, out '$out'"; fi
# HTIF: write syscall, console, exit code
out=$("$EMU" -q "$htif" </dev/null 2>"$tmp/err"); rc=$?
if [ "$rc" -eq 5 ] && [ "$out" = "htif ok"$'\n''!' ]; then
  pass htif-exit-code
else
  fail htif-exit-code "exit $rc, out '$out'"
fi
# riscv-arch-test signature dump, as Spike's +signature (+signature-granularity)
"$EMU" -q --signature "$tmp/sig4" "$htif" </dev/null >/dev/null 2>&1
"$EMU" -q --signature "$tmp/sig8" --signature-granularity 8 "$htif" </dev/null >/dev/null 2>&1
if [ "$(cat "$tmp/sig4" 2>/dev/null)" = $'11223344\ndeadbeef\n00000001\n80000000' ] &&
   [ "$(cat "$tmp/sig8" 2>/dev/null)" = $'deadbeef11223344\n8000000000000001' ]; then
  pass signature
else
  fail signature "got: $(tr '\n' ' ' <"$tmp/sig4" 2>/dev/null) / $(tr '\n' ' ' <"$tmp/sig8" 2>/dev/null)"
fi
expect_error signature-missing "no begin_signature" --signature "$tmp/nosig" "$hello"
# the same program on QEMU's virt machine (a reference only)
if command -v qemu-system-riscv64 >/dev/null; then
  qout=$(timeout 20 qemu-system-riscv64 -M virt -bios none -kernel "$hello" -nographic -monitor none </dev/null 2>/dev/null); qrc=$?
  eout=$("$EMU" -q "$hello" </dev/null 2>/dev/null); erc=$?
  if [ "$qrc" = "$erc" ] && [ "$(tr -d '\r' <<<"$qout")" = "$eout" ]; then pass qemu-same-output; else fail qemu-same-output "qemu $qrc '$qout' vs mtemu $erc '$eout'"; fi
fi
# Debian's OpenSBI (fw_jump) boots, hands over to an S-mode payload with the DTB in a1, serves
# its SBI console calls and powers off through the finisher
fw=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
if [ -e "$fw" ]; then
  out=$(timeout 60 "$EMU" -q --bios "$fw" --kernel "$FWBUILD/emu/sbi_payload.elf" </dev/null 2>"$tmp/err"); rc=$?
  if [ "$rc" -eq 0 ] && grep -q '^OpenSBI v' <<<"$out" && grep -q '^sbi ok' <<<"$out"; then
    pass opensbi-boot
  else
    fail opensbi-boot "exit $rc, last output: $(tail -n 2 <<<"$out")"
  fi
fi
# -m 64G reserves without touching (MAP_NORESERVE)
if "$EMU" -q -m 64G "$hello" >/dev/null 2>&1 </dev/null; [ $? -eq 3 ]; then pass big-ram; else fail big-ram "-m 64G failed"; fi
# --max-insns stops a long program with exit code 0
if "$EMU" -q --max-insns 100000 "$FWBUILD/bench/bench_cpu.elf" >/dev/null 2>&1 </dev/null; then pass max-insns; else fail max-insns "exit $?"; fi

# determinism: counts and event hashes of two runs, for both timing models
for timing in none simple cache; do
  for i in 1 2; do
    "$EMU" -q --stats --event-hash --timing=$timing --max-insns 2000000 "$FWBUILD/bench/bench_cpu.elf" \
      </dev/null >/dev/null 2>"$tmp/run$i"
    grep -E '^(instructions|cycles|events|access)' "$tmp/run$i" >"$tmp/key$i"
  done
  if [ -s "$tmp/key1" ] && grep -q '^events' "$tmp/key1" && cmp -s "$tmp/key1" "$tmp/key2"; then
    pass "determinism-$timing"
  else
    fail "determinism-$timing" "$(diff "$tmp/key1" "$tmp/key2" | head -3)"
  fi
done
# The interpreter's fast path (runs charged at once, fused pairs, stops inside runs for events)
# against its per-instruction path (--log-commits checks before every instruction): the same
# cycles and the same sampled event stream at rates that put events everywhere in runs and pairs.
for timing in none simple; do
  for rate in 1 5 24; do
    for i in 1 2; do
      log=(); [ $i = 2 ] && log=(--log-commits)
      "$EMU" -q --stats "${log[@]}" --event-hash=$rate --timing=$timing --max-insns 300000 \
        "$FWBUILD/bench/bench_cpu.elf" </dev/null >/dev/null 2>"$tmp/run$i"
      grep -E '^(instructions|cycles|events)' "$tmp/run$i" >"$tmp/key$i"
    done
    if grep -q '^events' "$tmp/key1" && cmp -s "$tmp/key1" "$tmp/key2"; then
      pass "runs-equal-steps-$timing-$rate"
    else
      fail "runs-equal-steps-$timing-$rate" "$(diff "$tmp/key1" "$tmp/key2" | head -3)"
    fi
  done
done
# the simple model costs more cycles than none for the same instructions
c0=$("$EMU" -q --stats --max-insns 1000000 "$FWBUILD/bench/bench_cpu.elf" 2>&1 </dev/null | awk '/^cycles/ {print $2}')
c1=$("$EMU" -q --stats --timing=simple --max-insns 1000000 "$FWBUILD/bench/bench_cpu.elf" 2>&1 </dev/null | awk '/^cycles/ {print $2}')
if [ -n "$c0" ] && [ -n "$c1" ] && [ "$c1" -gt "$c0" ]; then pass timing-simple-slower; else fail timing-simple-slower "none $c0 simple $c1"; fi
# the cache model: same instructions as simple, more cycles on a memory-bound program, DRAM traffic
s1=$("$EMU" -q --stats --timing=simple --max-insns 3000000 "$FWBUILD/bench/bench_mem.elf" 2>&1 </dev/null)
s2=$("$EMU" -q --stats --timing=cache --max-insns 3000000 "$FWBUILD/bench/bench_mem.elf" 2>&1 </dev/null)
cs=$(awk '/^cycles/ {print $2}' <<<"$s1"); cc=$(awk '/^cycles/ {print $2}' <<<"$s2")
fills=$(awk '/^dram/ {print $2}' <<<"$s2")
if [ -n "$cs" ] && [ -n "$cc" ] && [ "$cc" -gt "$cs" ] && [ "${fills:-0}" -gt 1000 ]; then
  pass timing-cache
else
  fail timing-cache "simple $cs cache $cc dram fills $fills"
fi
[ "$fails" -eq 0 ]
