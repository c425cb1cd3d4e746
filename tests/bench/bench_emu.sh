#!/usr/bin/env bash
# mtemu speed next to qemu-system-riscv64 (TCG) on the same bare-metal binaries, in one run.
# For each program: seconds of QEMU virt and of mtemu with --timing=none, --timing=simple, the
# access hook on at a sampling rate (--event-hash=24: one access per 24 cycles, the default burst
# rate) and on every access (--event-hash); MIPS from mtemu's instruction count; ratios.
# Each time is wall seconds / CPU seconds (user+sys of all threads): on a shared machine the CPU
# figure is the steadier one.  Targets (docs/emulator.md): none <= 3x QEMU, simple <= 1.3x none,
# hook(24) <= 1.2x none.
set -u
BIN=${BIN:-build/bin}
EMU=$BIN/mtemu
QEMU=${QEMU:-qemu-system-riscv64}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mips() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", n / s / 1e6; else print "-" }'; }

# timed CMD...: prints "wall cpu"; the command's stderr goes to $tmp/err
timed() {
  (
    TIMEFORMAT='%R %U %S'
    time nice -n 10 "$@" >/dev/null 2>"$tmp/err" </dev/null
  ) 2>"$tmp/time"
  awk '{ printf "%.3f %.3f", $1, $2 + $3 }' "$tmp/time"
}

printf '%-10s %11s | %13s | %13s %5s %6s %6s | %13s %5s | %13s %5s | %13s %5s\n' program instructions \
  "qemu wall/cpu" "none wall/cpu" MIPS "xqemu" "(cpu)" "simple" xnone "hook24" xnone "hook-all" xnone
for elf in "$@"; do
  name=$(basename "$elf" .elf)
  qw=0 qc=0
  if command -v "$QEMU" >/dev/null; then
    read -r qw qc < <(timed timeout 600 "$QEMU" -M virt -m 256M -bios none -kernel "$elf" -nographic -monitor none)
  fi
  read -r nw nc < <(timed "$EMU" -q --stats "$elf")
  insns=$(awk '/^instructions/ { print $2 }' "$tmp/err")
  read -r sw sc < <(timed "$EMU" -q --timing=simple "$elf")
  read -r hw hc < <(timed "$EMU" -q --event-hash=24 "$elf")
  read -r aw ac < <(timed "$EMU" -q --event-hash "$elf")
  printf '%-10s %11s | %6s/%6s | %6s/%6s %5s %6s %6s | %6s/%6s %5s | %6s/%6s %5s | %6s/%6s %5s\n' "$name" "$insns" \
    "$qw" "$qc" "$nw" "$nc" "$(mips "$insns" "$nw")" "$(ratio "$nw" "$qw")" "$(ratio "$nc" "$qc")" \
    "$sw" "$sc" "$(ratio "$sc" "$nc")" "$hw" "$hc" "$(ratio "$hc" "$nc")" "$aw" "$ac" "$(ratio "$ac" "$nc")"
done
echo "(xqemu: wall and CPU-time ratios of mtemu --timing=none to QEMU; xnone: CPU-time ratios to --timing=none)"
