#!/usr/bin/env bash
# Boot to poweroff: Debian's OpenSBI (fw_jump.bin) + build/linux/Image, /init runs `true` and powers
# off (mt.run=true), on qemu-system-riscv64 -M virt (TCG) and on mtemu, same files, same run, 1, 4
# and 8 harts.  Best of REPEAT (default 3) wall and CPU seconds (user+sys) each; ratio mtemu / QEMU
# (target: within 3x).  QEMU boots with its own device tree, which OpenSBI parses longer (about
# 10 M of its 28.6 M instructions, TOOLCHAIN-NOTES.md); mtemu's instruction count is from --stats.
set -u
BIN=${BIN:-build/bin}
EMU=$BIN/mtemu
QEMU=${QEMU:-qemu-system-riscv64}
SBI=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
IMAGE=build/linux/Image
REPEAT=${REPEAT:-3}
APPEND='console=ttyS0 earlycon=sbi mt.run=true'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$EMU" ] || { echo "bench_boot: $EMU missing"; exit 1; }
[ -f "$IMAGE" ] || make --no-print-directory linux >&2 || { echo "bench_boot: make linux failed"; exit 1; }
printf '\x13\x00\x00\x00' > "$tmp/nop.bin"
"$EMU" -q --max-insns 1 --dump-dtb "$tmp/virt.dtb" --bios "$tmp/nop.bin" >/dev/null 2>&1
if ! grep -qa rv64imafdc "$tmp/virt.dtb"; then
  echo "bench_boot: skipped, mtemu has no F/D yet (busybox needs it)"
  exit 0
fi

# best CMD...: runs CMD REPEAT times; prints "wall cpu" of the fastest; fails if a run fails or
# does not reach the poweroff
best() {
  local bw= bc=
  for _ in $(seq "$REPEAT"); do
    ( TIMEFORMAT='%R %U %S'; time nice -n 10 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null ) 2>"$tmp/time" || return 1
    grep -q "reboot: Power down" "$tmp/out" || return 1
    read -r w c < <(awk '{ printf "%.3f %.3f", $1, $2 + $3 }' "$tmp/time")
    if [ -z "$bw" ] || awk -v a="$w" -v b="$bw" 'BEGIN { exit !(a < b) }'; then bw=$w bc=$c; fi
  done
  echo "$bw $bc"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }

printf '%-6s | %15s | %15s %12s %10s | %7s %7s\n' harts "qemu wall/cpu s" "mtemu wall/cpu" instructions "emulated s" "x wall" "x cpu"
status=0
for harts in 1 4 8; do
  if ! q=$(best timeout 300 "$QEMU" -M virt -m 256M -smp "$harts" -nographic -monitor none \
             -bios "$SBI" -kernel "$IMAGE" -append "$APPEND"); then
    echo "bench_boot: QEMU did not reach the poweroff ($harts harts)"; status=1; continue
  fi
  if ! e=$(best timeout 300 "$EMU" -q --stats -m 256M -smp "$harts" --bios "$SBI" --kernel "$IMAGE" --append "$APPEND"); then
    echo "bench_boot: mtemu did not reach the poweroff ($harts harts):"; tail -3 "$tmp/out"; status=1; continue
  fi
  read -r qw qc <<<"$q"; read -r ew ec <<<"$e"
  insns=$(grep -o 'total [0-9]*' "$tmp/err" | awk '{ print $2 }')  # -smp: all harts
  [ -n "$insns" ] || insns=$(awk '/^instructions/ { print $2; exit }' "$tmp/err")
  emu_s=$(awk '/^mtime/ { gsub(/[(]/, "", $3); print $3; exit }' "$tmp/err")
  printf '%-6s | %7s/%7s | %7s/%7s %12s %10s | %7s %7s\n' "$harts" "$qw" "$qc" "$ew" "$ec" "$insns" "$emu_s" \
    "$(ratio "$ew" "$qw")" "$(ratio "$ec" "$qc")"
done
exit $status
