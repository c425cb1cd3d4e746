#!/usr/bin/env bash
# alt_vs_qemu.sh WORKLOAD ROUNDS MTEMU...: QEMU (TCG) and one or more mtemu builds, alternating
# round by round (so the machine's other load falls on all of them alike), --timing=none, on
#   linux  Debian's OpenSBI + build/linux/Image with mt.script=worksets.sh mt.scale=1 to the
#          poweroff (every run must print the workload's checksum), or
#   bench  build/firmware/bench/bench_cpu.elf (bare metal, -bios none).
# Prints each build's CPU seconds (user+sys) and wall seconds per run, their medians, and the
# median CPU ratios to QEMU and to the first build: how docs/emulator.md's "Measured" tables of
# issue #24 were made.  On a loaded machine compare the CPU times, not the walls.
set -u
if [ $# -lt 3 ] || { [ "$1" != linux ] && [ "$1" != bench ]; } || ! [[ "$2" =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: $0 linux|bench ROUNDS MTEMU..." >&2
  exit 2
fi
workload=$1 rounds=$2
shift 2
QEMU=${QEMU:-qemu-system-riscv64}
SBI=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
IMAGE=${IMAGE:-build/linux/Image}
ELF=${ELF:-build/firmware/bench/bench_cpu.elf}
APPEND="console=ttyS0 earlycon=sbi mt.script=worksets.sh mt.scale=1"
CHECKSUM=e56ff674d550cf4c06aa909438ee1d7f
for f in "$@"; do [ -x "$f" ] || { echo "$0: $f: not an executable" >&2; exit 2; }; done
command -v "$QEMU" >/dev/null || { echo "$0: $QEMU not found" >&2; exit 2; }
if [ "$workload" = linux ]; then
  [ -r "$IMAGE" ] && [ -r "$SBI" ] || { echo "$0: needs $IMAGE and $SBI" >&2; exit 2; }
else
  [ -r "$ELF" ] || { echo "$0: needs $ELF" >&2; exit 2; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME CMD...: appends "cpu wall" to $tmp/NAME; a Linux run without the checksum is an error
run() {
  local name=$1
  shift
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >"$tmp/out" 2>/dev/null </dev/null
  if [ "$workload" = linux ] && ! grep -q "$CHECKSUM" "$tmp/out"; then
    echo "$0: $name: no workload checksum in its output" >&2
    exit 1
  fi
  awk '{ printf "%.2f %.2f\n", $2 + $3, $1 }' "$tmp/time" >>"$tmp/$name"
}
for ((r = 0; r < rounds; r++)); do
  if [ "$workload" = linux ]; then
    run qemu "$QEMU" -M virt -m 256M -nographic -monitor none -bios "$SBI" -kernel "$IMAGE" -append "$APPEND"
  else
    run qemu "$QEMU" -M virt -m 256M -bios none -kernel "$ELF" -nographic -monitor none
  fi
  i=0
  for emu in "$@"; do
    if [ "$workload" = linux ]; then
      run "emu$i" "$emu" -q --timing=none -m 256M --bios "$SBI" --kernel "$IMAGE" --append "$APPEND"
    else
      run "emu$i" "$emu" -q --timing=none "$ELF"
    fi
    i=$((i + 1))
  done
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
report() { # NAME LABEL
  printf '%-28s cpu %s median %s | wall %s median %s\n' "$2" "$(cut -d' ' -f1 "$tmp/$1" | tr '\n' ' ')" \
    "$(cut -d' ' -f1 "$tmp/$1" | median)" "$(cut -d' ' -f2 "$tmp/$1" | tr '\n' ' ')" "$(cut -d' ' -f2 "$tmp/$1" | median)"
}
report qemu QEMU
qc=$(cut -d' ' -f1 "$tmp/qemu" | median)
fc=$(cut -d' ' -f1 "$tmp/emu0" | median)
i=0
for emu in "$@"; do
  report "emu$i" "$emu"
  c=$(cut -d' ' -f1 "$tmp/emu$i" | median)
  awk -v c="$c" -v q="$qc" -v f="$fc" -v n="$emu" 'BEGIN { printf "  %s: cpu / QEMU %.3f, cpu / first build %.3f\n", n, c / q, c / f }'
  i=$((i + 1))
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
