#!/usr/bin/env bash
# mtemu's gdbstub driven by gdb-multiarch in batch mode (registers, CSRs, memory, breakpoints,
# steps, watchpoints, threads with -smp 2, detach, kill), by a raw protocol client (Ctrl-C,
# hostile packets), the options' errors, and determinism: the trace and the access-event hash
# of a run continued under gdb equal those of a run without.  Each mtemu listens on a port the
# kernel picks (-gdb tcp::0), so parallel runs never collide; everything runs under timeouts.
# test-timeout: 120
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
EMU=$BIN/mtemu
ELF=$FWBUILD/gdb/gdbtest.elf
tmp=$(mktemp -d)
mpid=
trap '[ -n "$mpid" ] && kill "$mpid" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
pass() { echo "PASS gdb/$1"; }
fail() { echo "FAIL gdb/$1: $2"; fails=$((fails + 1)); }

if ! command -v gdb-multiarch >/dev/null; then
  echo "gdb-multiarch not installed (make deps)"; exit 77
fi

# start_mtemu ARGS...: mtemu -S (NO_S=" ": without) on a free port in the background; sets $port and $mpid
start_mtemu() {
  : >"$tmp/mtemu.err"
  timeout 60 "$EMU" -q -gdb tcp:127.0.0.1:0 ${NO_S:--S} "$@" >"$tmp/mtemu.out" 2>"$tmp/mtemu.err" </dev/null &
  mpid=$!
  port=
  for _ in $(seq 100); do
    port=$(sed -n 's/.*listening on tcp:[^:]*:\([0-9]*\).*/\1/p' "$tmp/mtemu.err")
    [ -n "$port" ] && return 0
    sleep 0.05
  done
  echo "mtemu did not start: $(cat "$tmp/mtemu.err")"; return 1
}
# wait_mtemu: mtemu's exit code in $mrc
wait_mtemu() { wait "$mpid"; mrc=$?; mpid=; }
# run_gdb OUT GDB-COMMANDS...: one -ex per argument, after connecting
run_gdb() {
  local out=$1; shift
  local args=(-nx -batch -ex "set pagination off" -ex "set confirm off" -ex "file $ELF" -ex "target remote 127.0.0.1:$port")
  # (ELF may be set for one call: the Linux case gives vmlinux)
  for c in "$@"; do args+=(-ex "$c"); done
  timeout 60 gdb-multiarch "${args[@]}" >"$out" 2>&1 </dev/null
}
# expect NAME FILE EXTENDED-REGEX...: every pattern is in FILE
expect() {
  local name=$1 file=$2; shift 2
  for pat in "$@"; do
    if ! grep -Eq -- "$pat" "$file"; then fail "$name" "no /$pat/ in: $(tr '\n' '|' <"$file" | tail -c 1500)"; return; fi
  done
  pass "$name"
}

# ---- one hart: registers, breakpoints, steps, memory, watchpoints -----------------------------
start_mtemu "$ELF" || exit 1
run_gdb "$tmp/one.txt" \
  'info registers pc' 'p $priv' 'p/x $mhartid' 'p/x $misa' 'p $ft0' 'p/x $fcsr' 'info registers priv' \
  'break tick' 'continue' 'p i' 'continue' 'p i' 'p counter' 'bt' \
  'next' 'p $pc' 'stepi' 'p $pc' 'info line *$pc' \
  'x/2xg &table' 'set var table[1] = 0x5678' 'p/x table[1]' \
  'maintenance packet Qqemu.PhyMemMode:1' 'x/xw 0x80000000' 'maintenance packet Qqemu.PhyMemMode:0' \
  'delete' 'watch watched' 'continue' 'delete' 'rwatch watched' 'continue' 'delete' 'awatch counter' 'continue' \
  'delete' 'hbreak reader' 'continue' 'info threads' 'kill'
wait_mtemu
o=$tmp/one.txt
expect registers-at-reset "$o" '^pc +0x1000' '^\$1 = 3$' '^\$2 = 0x0$' '^\$3 = 0x80000000001411ad' '^\$4 = \{float = 0, double = 0\}' \
  'priv +0x3[[:space:]]+prv:3 \[Machine\]'
expect breakpoint "$o" 'Breakpoint 1, tick \(i=1\) at .*gdbtest.c' 'Breakpoint 1, tick \(i=2\)' '^\$7 = 2$'
expect print-variable "$o" '^\$8 = 1$'
expect backtrace "$o" '#1 .* in gdbtest_main \(hartid=0\)'
expect step-next "$o" '^[0-9]+[[:space:]]+watched = counter \* 2;'
expect memory-read "$o" '<table>:[[:space:]]+0x0000000000001111[[:space:]]+0x0000000000002222'
expect memory-write "$o" '^\$[0-9]+ = 0x5678$'
expect physical-memory "$o" 'received: "OK"' '0x80000000 <_start>:[[:space:]]+0xf1402573'
expect watch-write "$o" 'Hardware watchpoint [0-9]+: watched' 'Old value = [0-9]+' 'New value = [0-9]+'
expect watch-read "$o" 'Hardware read watchpoint [0-9]+: watched' 'Value = [0-9]+'
expect watch-access "$o" 'Hardware access \(read/write\) watchpoint [0-9]+: counter'
expect hw-breakpoint "$o" 'Hardware assisted breakpoint [0-9]+ at' ', reader \(\) at'
expect kill "$o" 'killed'
[ "$mrc" -eq 0 ] && pass kill-exit || fail kill-exit "mtemu exit $mrc"
# stepi moves by one instruction: the two pcs differ by 2 or 4
p1=$(sed -n 's/^\$9 = .*0x\([0-9a-f]*\).*/\1/p' "$o"); p2=$(sed -n 's/^\$10 = .*0x\([0-9a-f]*\).*/\1/p' "$o")
if [ -n "$p1" ] && [ -n "$p2" ] && { [ $((0x$p2 - 0x$p1)) -eq 2 ] || [ $((0x$p2 - 0x$p1)) -eq 4 ]; }; then
  pass stepi
else
  fail stepi "pc $p1 -> $p2"
fi

# ---- -smp 2: threads ------------------------------------------------------------------------
start_mtemu -smp 2 "$ELF" || exit 1
run_gdb "$tmp/smp.txt" 'info threads' 'thread 2' 'p/x $mhartid' 'thread 1' 'p/x $mhartid' \
  'break tick if i == 3' 'continue' 'p i' 'thread 2' 'p/x $a0' 'delete' 'detach'
wait_mtemu
o=$tmp/smp.txt
expect threads "$o" 'Thread 1 \(hart 0\)' 'Thread 2 \(hart 1\)' '^\$1 = 0x1$' '^\$2 = 0x0$' '^\$3 = 3$'
expect detach "$o" 'Inferior 1 \(Remote target\) detached'
[ "$mrc" -eq 0 ] && pass detach-guest-finishes || fail detach-guest-finishes "mtemu exit $mrc (the guest exits 0 when it ran to its end)"

# ---- the raw protocol: hostile packets, Ctrl-C, the exit reply --------------------------------
if command -v python3 >/dev/null; then
  spin=$(riscv64-unknown-elf-nm "$ELF" 2>/dev/null | awk '$3 == "spin_forever" {print $1}')
  start_mtemu "$ELF" || exit 1
  timeout 30 python3 tests/gdb/rsp_client.py "$port" "$spin" >"$tmp/raw.txt" 2>&1
  wait_mtemu
  sed 's/^\(PASS\|FAIL\) /\1 gdb\//' "$tmp/raw.txt"
  grep -q '^PASS rsp-exit-reply' "$tmp/raw.txt" || fail raw-client "$(tail -n 5 "$tmp/raw.txt")"
  [ "$mrc" -eq 0 ] && pass raw-exit-code || fail raw-exit-code "mtemu exit $mrc"
fi

# ---- determinism: the same trace and event hash with and without gdb --------------------------
"$EMU" -q -smp 2 --trace "$tmp/plain.mtr" "$ELF" >/dev/null 2>&1 </dev/null
start_mtemu -smp 2 --trace "$tmp/gdb.mtr" "$ELF" || exit 1
run_gdb "$tmp/det.txt" 'break tick' 'watch watched' 'continue' 'continue' 'stepi' 'next' 'thread 2' 'stepi' \
  'continue' 'delete' 'continue'
wait_mtemu
if [ "$mrc" -eq 0 ] && [ -s "$tmp/plain.mtr" ] && cmp -s "$tmp/plain.mtr" "$tmp/gdb.mtr"; then
  pass trace-same-under-gdb
else
  fail trace-same-under-gdb "exit $mrc; $(cmp "$tmp/plain.mtr" "$tmp/gdb.mtr" 2>&1)"
fi
stats() { grep -E '^(instructions|cycles|events|access)' ; }
"$EMU" -q -smp 2 --stats --event-hash "$ELF" 2>&1 >/dev/null </dev/null | stats >"$tmp/plain.stats"
start_mtemu -smp 2 --stats --event-hash "$ELF" || exit 1
run_gdb "$tmp/det2.txt" 'break reader' 'continue' 'stepi' 'delete' 'continue'
wait_mtemu
stats <"$tmp/mtemu.err" >"$tmp/gdb.stats"
if [ -s "$tmp/plain.stats" ] && cmp -s "$tmp/plain.stats" "$tmp/gdb.stats"; then
  pass event-hash-same-under-gdb
else
  fail event-hash-same-under-gdb "$(diff "$tmp/plain.stats" "$tmp/gdb.stats" | head -5)"
fi

# the same in the per-access interpreter (--timing=cache: every access to the hook)
"$EMU" -q --timing=cache --stats --event-hash "$ELF" 2>&1 >/dev/null </dev/null | stats >"$tmp/plain.stats"
start_mtemu --timing=cache --stats --event-hash "$ELF" || exit 1
run_gdb "$tmp/det3.txt" 'break tick' 'watch counter' 'continue' 'continue' 'stepi' 'next' 'delete' 'continue'
wait_mtemu
stats <"$tmp/mtemu.err" >"$tmp/gdb.stats"
if [ -s "$tmp/plain.stats" ] && cmp -s "$tmp/plain.stats" "$tmp/gdb.stats" && grep -q 'Breakpoint 1, tick' "$tmp/det3.txt"; then
  pass event-hash-same-under-gdb-cache-timing
else
  fail event-hash-same-under-gdb-cache-timing "$(diff "$tmp/plain.stats" "$tmp/gdb.stats" | head -5)"
fi

# ---- attaching to a running guest (no -S): it stops for gdb, as QEMU's does -----------------
bench=$FWBUILD/bench/bench_cpu.elf
if [ -f "$bench" ]; then
  NO_S=" " start_mtemu "$bench" || exit 1
  sleep 0.3
  ELF=$bench run_gdb "$tmp/attach.txt" 'p/x $pc' 'p $priv' 'stepi' 'kill'
  wait_mtemu
  expect attach-running "$tmp/attach.txt" '^\$1 = 0x800[0-9a-f]{5}$' '^\$2 = 3$' 'killed'
  [ "$mrc" -eq 0 ] && pass attach-running-kill-exit || fail attach-running-kill-exit "mtemu exit $mrc"
fi

# ---- Linux: break at a kernel symbol (when the kernel and Debian's OpenSBI are there) -----------
linux=${BUILD:-build}/linux
osbi=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
if [ -f "$linux/Image" ] && [ -f "$osbi" ]; then
  # by address (all the Image gives): the kernel's first instruction, S-mode, translation off
  start_mtemu --bios "$osbi" --kernel "$linux/Image" --append "console=ttyS0 earlycon=sbi" || exit 1
  run_gdb "$tmp/linux0.txt" 'break *0x80200000' 'continue' 'p $priv' 'p/x $satp' 'p/x $a0' 'kill'
  wait_mtemu
  expect linux-break-by-address "$tmp/linux0.txt" 'Breakpoint 1, 0x0000000080200000 in' '^\$1 = 1$' '^\$2 = 0x0$' '^\$3 = 0x0$'
fi
if [ -f "$linux/Image" ] && [ -f "$linux/kernel-obj/vmlinux" ] && [ -f "$osbi" ]; then
  start_mtemu --bios "$osbi" --kernel "$linux/Image" --append "console=ttyS0 earlycon=sbi" || exit 1
  ELF=$linux/kernel-obj/vmlinux run_gdb "$tmp/linux.txt" 'break start_kernel' 'continue' 'p $priv' 'p/x $satp' \
    'x/s &linux_banner' 'kill'
  wait_mtemu
  expect linux-break-start-kernel "$tmp/linux.txt" 'Breakpoint 1, 0x[0-9a-f]+ in start_kernel' '^\$1 = 1$' '^\$2 = 0x[89]0'
  expect linux-virtual-memory "$tmp/linux.txt" '<linux_banner>:[[:space:]]+"Linux version 6'
else
  echo "(no $linux/Image + kernel-obj/vmlinux or no $osbi: the Linux case is not run)"
fi

# ---- the options' errors ----------------------------------------------------------------------
opt_error() {
  local name=$1 pat=$2; shift 2
  local out rc
  out=$(timeout 10 "$EMU" "$@" 2>&1 >/dev/null </dev/null); rc=$?
  if [ "$rc" -eq 2 ] && grep -q -- "$pat" <<<"$out"; then pass "$name"; else fail "$name" "exit $rc: $out"; fi
}
opt_error option-not-tcp 'not tcp:\[HOST\]:PORT' -gdb udp::1 "$ELF"
opt_error option-bad-port 'port 99999 is not a number' -gdb tcp::99999 "$ELF"
opt_error option-missing 'needs a value' "$ELF" -gdb
opt_error option-S-alone '-S: waits for gdb' -S "$ELF"
start_mtemu "$ELF" || exit 1
opt_error option-port-in-use 'cannot listen' -gdb "tcp:127.0.0.1:$port" "$ELF"
kill "$mpid" 2>/dev/null; wait "$mpid" 2>/dev/null; mpid=

[ "$fails" -eq 0 ]
