#!/usr/bin/env bash
# The QEMU trace plugin (tests/bench/qemu_trace_plugin.c), which `make bench` sets beside
# `mtemu --trace-all`, checked so that the bench cannot measure a broken plugin:
#   * built here from its source against the cached qemu-plugin.h (skipped, exit 77, when the header
#     or qemu-system-riscv64 or the RISC-V compiler is missing: tests/bench/qemu-plugin-header.sh
#     fetches the header, and `make bench` runs it);
#   * run on tests/bench/plugin_count.S, whose records follow from its text alone (see there): after
#     QEMU's reset vector (6 fetches and 2 loads in its ROM at 0x1000: QEMU 7.2's hw/riscv/boot.c,
#     riscv_setup_rom_reset_vec, auipc/addi/csrr/ld/ld/jr on RV64), the program's fetches,
#     loads and stores must appear in exactly the order and at exactly the addresses the program
#     implies: 4 x LOOPS + 7 fetches, LOOPS loads of `cell`, LOOPS stores to `cell + 8`;
#   * the plugin's own summary line must agree with the file (records = bytes / 8, per kind);
#   * a second emulator, mtemu (when built), must count the same: its instructions = the plugin's
#     fetches (both run QEMU's reset vector), its --trace-all accesses = the plugin's records + 1
#     (mtemu records the finisher's store, which ends QEMU before the plugin sees it);
#   * bad plugin arguments (none, unknown, unwritable file) must stop QEMU with the plugin's message.
set -u
BUILD=${BUILD:-build}
QEMU=${QEMU:-qemu-system-riscv64}
CC=${CC:-gcc}
RVCC=${RVCC:-riscv64-unknown-elf-gcc}
header_dir=${QPLUGIN_DIR:-build/qemu-plugin}/include   # shared by the plain and SAN=1 builds
LOOPS=2000   # 6 x LOOPS records: more than one 8192-record buffer, so a flush is tested

[ -f "$header_dir/qemu-plugin.h" ] || {
  echo "skip: $header_dir/qemu-plugin.h not cached (tests/bench/qemu-plugin-header.sh or make bench-qemu-plugin fetches it)"; exit 77; }
command -v "$QEMU" >/dev/null || { echo "skip: $QEMU not installed"; exit 77; }
command -v "$RVCC" >/dev/null || { echo "skip: $RVCC not installed"; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }

if "$CC" -std=c17 -O2 -Wall -Wextra -Werror -fPIC -shared -I"$header_dir" \
     tests/bench/qemu_trace_plugin.c -o "$tmp/plugin.so" -lpthread 2>"$tmp/cc.log"; then
  pass plugin-builds
else
  fail plugin-builds "$(cat "$tmp/cc.log")"; exit 1
fi
"$RVCC" -march=rv64imac -mabi=lp64 -mcmodel=medany -nostdlib -nostartfiles -static \
  -T tests/bench/link.ld -Wl,--no-warn-rwx-segments -DLOOPS=$LOOPS tests/bench/plugin_count.S \
  -o "$tmp/count.elf" || { fail program-builds "$RVCC failed"; exit 1; }

run_qemu() {   # run_qemu PLUGIN-ARGS: QEMU on the check program; stderr in $tmp/err
  timeout 60 "$QEMU" -M virt -m 64M -bios none -kernel "$tmp/count.elf" -nographic -monitor none \
    -plugin "$tmp/plugin.so$1" >/dev/null 2>"$tmp/err" </dev/null
}

# --- records against the program's text -----------------------------------------------------------
if ! run_qemu ",out=$tmp/rec.bin"; then
  fail qemu-runs "exit $?: $(cat "$tmp/err")"; exit 1
fi
# mawk (Debian's default awk) has no strtonum: a hex parser for the awk programs below.
hex_awk='function hex(x,   i, v) { v = 0; x = tolower(x); for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1; return v }'
sym() { "${RVCC%gcc}nm" "$tmp/count.elf" | awk -v s="$1" '$3 == s { print $1 }'; }
start=$(sym _start) loop=$(sym loop) finish=$(sym finish) cell=$(sym cell)
# One line per record: kind (0 fetch, 1 load, 2 store) and address, in hex without leading zeros.
od -An -v -tx8 -w8 "$tmp/rec.bin" |
  awk '{ k = substr($1, 1, 2) + 0; a = substr($1, 3); sub(/^0+/, "", a); print k, a }' >"$tmp/got"
# The expected sequence from the program's text (plugin_count.S's header).
awk -v s="$start" -v l="$loop" -v f="$finish" -v c="$cell" -v n=$LOOPS "$hex_awk"'
  function h(x) { return hex(x) }
  function p(k, a) { printf "%d %x\n", k, a }
  BEGIN {
    S = h(s); L = h(l); F = h(f); C = h(c)
    p(0, S); p(0, S + 4); p(0, S + 8)
    for (i = 0; i < n; i++) { p(0, L); p(1, C); p(0, L + 4); p(2, C + 8); p(0, L + 8); p(0, L + 10) }
    p(0, L + 14); p(0, L + 18); p(0, L + 22); p(0, F)
  }' >"$tmp/want"
first=$(grep -n "^0 ${start#"${start%%[!0]*}"}\$" "$tmp/got" | head -1 | cut -d: -f1)
if [ -z "$first" ]; then
  fail program-records "no fetch of _start ($start) recorded"
else
  head -n $((first - 1)) "$tmp/got" >"$tmp/rom"
  rom_fetch=$(awk "$hex_awk"' $1 == 0 && hex($2) >= 4096 && hex($2) < 4352' "$tmp/rom" | wc -l)
  rom_load=$(awk "$hex_awk"' $1 == 1 && hex($2) >= 4096 && hex($2) < 4352' "$tmp/rom" | wc -l)
  if [ "$rom_fetch" -eq 6 ] && [ "$rom_load" -eq 2 ] && [ "$(wc -l <"$tmp/rom")" -eq 8 ]; then
    pass reset-vector-records
  else
    fail reset-vector-records "want 6 fetches and 2 loads in the ROM at 0x1000, got: $(tr '\n' ';' <"$tmp/rom")"
  fi
  tail -n +"$first" "$tmp/got" >"$tmp/prog"
  if cmp -s "$tmp/prog" "$tmp/want"; then
    pass program-records
  else
    fail program-records "$(diff "$tmp/want" "$tmp/prog" | head -5 | tr '\n' ';') (want $(wc -l <"$tmp/want") records, got $(wc -l <"$tmp/prog"))"
  fi
fi

# --- the plugin's own counts against its file ----------------------------------------------------
read -r f l s r b < <(sed -n 's/^.*qemu_trace_plugin: fetches \([0-9]*\) loads \([0-9]*\) stores \([0-9]*\) records \([0-9]*\) bytes \([0-9]*\)$/\1 \2 \3 \4 \5/p' "$tmp/err")
size=$(stat -c %s "$tmp/rec.bin")
gf=$(awk '$1 == 0' "$tmp/got" | wc -l) gl=$(awk '$1 == 1' "$tmp/got" | wc -l) gs=$(awk '$1 == 2' "$tmp/got" | wc -l)
if [ -n "${f:-}" ] && [ "$f" = "$gf" ] && [ "$l" = "$gl" ] && [ "$s" = "$gs" ] &&
   [ "$r" = $((gf + gl + gs)) ] && [ "$b" = "$size" ] && [ "$size" = $((r * 8)) ] &&
   [ "$f" = $((4 * LOOPS + 7 + 6)) ] && [ "$l" = $((LOOPS + 2)) ] && [ "$s" = $LOOPS ]; then
  pass summary-matches-file
else
  fail summary-matches-file "summary '${f:-?} ${l:-?} ${s:-?} ${r:-?} ${b:-?}', file $gf/$gl/$gs records, $size bytes"
fi

# --- a second emulator's count ---------------------------------------------------------------------
EMU=${BIN:-$BUILD/bin}/mtemu
if [ -x "$EMU" ]; then
  "$EMU" -q --stats --trace-all "$tmp/count.mtr" "$tmp/count.elf" >/dev/null 2>"$tmp/emu.err" </dev/null
  mi=$(awk '$1 == "instructions" { print $2 }' "$tmp/emu.err")
  ma=$(awk '$1 == "trace.all" { print $2 }' "$tmp/emu.err")
  if [ -n "$mi" ] && [ "$mi" = "${f:-x}" ] && [ -n "$ma" ] && [ "$ma" = $((${r:-0} + 1)) ]; then
    pass mtemu-agrees
  else
    fail mtemu-agrees "mtemu: ${mi:-?} instructions, ${ma:-?} accesses; plugin: ${f:-?} fetches, ${r:-?} records"
  fi
else
  echo "mtemu-agrees not run: $EMU not built"
fi

# --- bad arguments: QEMU must stop with the plugin's own message ----------------------------------
bad_arg() {   # bad_arg NAME PLUGIN-ARGS EXPECTED-TEXT
  if run_qemu "$2"; then
    fail "$1" "QEMU exited 0"
  elif grep -q "$3" "$tmp/err"; then
    pass "$1"
  else
    fail "$1" "no '$3' in: $(cat "$tmp/err")"
  fi
}
bad_arg bad-arg-missing "" "missing argument out=PATH"
bad_arg bad-arg-unknown ",out=$tmp/x.bin,rate=2" "unknown argument 'rate=2'"
bad_arg bad-arg-unwritable ",out=$tmp/no/such/dir/x.bin" "cannot open $tmp/no/such/dir/x.bin"
[ "$failures" -eq 0 ]
