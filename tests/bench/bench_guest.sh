#!/usr/bin/env bash
# Linux as a guest beside Linux native (docs/boot.md, "Linux as a guest"): boot to poweroff of
# build/linux/Image with /init running `true` (mt.run=true), one hart, 256 MiB, on QEMU (TCG,
# -cpu rv64,h=true,sstc=true for both rows) and on mtemu:
#   native  Debian's OpenSBI fw_jump.bin + the Image in S-mode (console=ttyS0)
#   guest   firmware/vmm (HS) + the Image in VS-mode under the Sv39x4 G-stage (console=hvc0)
# Best of REPEAT (default 3) wall and CPU seconds (user+sys); mtemu's instructions and emulated
# seconds from --stats; the guest's cost relative to native on each emulator.
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
EMU=$BIN/mtemu
VMM=$FWBUILD/vmm.elf
QEMU=${QEMU:-qemu-system-riscv64}
SBI=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
IMAGE=build/linux/Image
REPEAT=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$EMU" ] || { echo "bench_guest: $EMU missing"; exit 1; }
[ -f "$VMM" ] || { echo "bench_guest: $VMM missing (make $VMM)"; exit 1; }
[ -f "$IMAGE" ] || make --no-print-directory linux >&2 || { echo "bench_guest: make linux failed"; exit 1; }

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

printf '%-7s | %15s | %15s %12s %10s\n' setup "qemu wall/cpu s" "mtemu wall/cpu" instructions "emulated s"
status=0
declare -A qcpu ecpu
for setup in native guest; do
  if [ "$setup" = native ]; then
    firmware=$SBI append='console=ttyS0 earlycon=sbi mt.run=true'
  else
    firmware=$VMM append='console=hvc0 earlycon=sbi mt.run=true'
  fi
  if ! q=$(best timeout 300 "$QEMU" -M virt -cpu rv64,h=true,sstc=true -m 256M -nographic -monitor none \
             -bios "$firmware" -kernel "$IMAGE" -append "$append"); then
    echo "bench_guest: QEMU did not reach the poweroff ($setup)"; status=1; continue
  fi
  if ! e=$(best timeout 300 "$EMU" -q --stats -m 256M --bios "$firmware" --kernel "$IMAGE" --append "$append"); then
    echo "bench_guest: mtemu did not reach the poweroff ($setup):"; tail -3 "$tmp/out"; status=1; continue
  fi
  read -r qw qc <<<"$q"; read -r ew ec <<<"$e"
  qcpu[$setup]=$qc ecpu[$setup]=$ec
  insns=$(awk '/^instructions/ { print $2; exit }' "$tmp/err")
  emu_s=$(awk '/^mtime/ { gsub(/[(]/, "", $3); print $3; exit }' "$tmp/err")
  printf '%-7s | %7s/%7s | %7s/%7s %12s %10s\n' "$setup" "$qw" "$qc" "$ew" "$ec" "$insns" "$emu_s"
done
[ $status -eq 0 ] && printf 'guest / native CPU time: qemu %s, mtemu %s\n' \
  "$(ratio "${qcpu[guest]}" "${qcpu[native]}")" "$(ratio "${ecpu[guest]}" "${ecpu[native]}")"
exit $status
