#!/usr/bin/env bash
# mtemu speed next to qemu-system-riscv64 (TCG) on the same bare-metal binaries, in one run.
# For each program: wall seconds of QEMU virt and of mtemu with --timing=none, --timing=simple,
# the access hook on at a sampling rate (--event-hash=24: one access per 24 cycles, the default
# burst rate) and on every access (--event-hash); MIPS from mtemu's instruction count; ratios.
# Targets (docs/emulator.md): none <= 3x QEMU, simple <= 1.3x none, hook(24) <= 1.2x none.
set -u
BIN=${BIN:-build/bin}
EMU=$BIN/mtemu
QEMU=${QEMU:-qemu-system-riscv64}
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
mips() { awk -v n="$1" -v s="$2" 'BEGIN { if (s > 0) printf "%.0f", n / s / 1e6; else print "-" }'; }

run_emu() { # prints "seconds instructions"
  local t0 t1 out
  t0=$(now)
  out=$(nice -n 10 "$EMU" -q --stats "$@" 2>&1 >/dev/null </dev/null)
  t1=$(now)
  echo "$(secs "$t0" "$t1") $(awk '/^instructions/ { print $2 }' <<<"$out")"
}

printf '%-10s %12s %8s | %8s %6s %6s | %8s %6s | %8s %6s | %8s %6s\n' program instructions qemu_s \
  none_s MIPS xqemu simple_s xnone hook24_s xnone hookall_s xnone
for elf in "$@"; do
  name=$(basename "$elf" .elf)
  have_qemu=1
  command -v "$QEMU" >/dev/null || have_qemu=0
  q=0
  if [ $have_qemu = 1 ]; then
    t0=$(now)
    nice -n 10 timeout 600 "$QEMU" -M virt -m 256M -bios none -kernel "$elf" -nographic -monitor none \
      </dev/null >/dev/null 2>&1
    t1=$(now)
    q=$(secs "$t0" "$t1")
  fi
  read -r n insns < <(run_emu "$elf")
  read -r s _ < <(run_emu --timing=simple "$elf")
  read -r h _ < <(run_emu --event-hash=24 "$elf")
  read -r a _ < <(run_emu --event-hash "$elf")
  printf '%-10s %12s %8s | %8s %6s %6s | %8s %6s | %8s %6s | %8s %6s\n' "$name" "$insns" "$q" \
    "$n" "$(mips "$insns" "$n")" "$(ratio "$n" "$q")" "$s" "$(ratio "$s" "$n")" \
    "$h" "$(ratio "$h" "$n")" "$a" "$(ratio "$a" "$n")"
done
