#!/usr/bin/env bash
# Linux 6.1 + busybox (build/linux/Image, `make linux`) behind Debian's OpenSBI on mtemu, 1 hart and
# -smp 4, a command run from the kernel command line and the interactive shell: the checks are
# tests/e2e/linux-boot.sh's (one PASS/FAIL line per case); this wrapper adds what `make test` needs.
#  - busybox is hard-float glibc: without F/D in mtemu (emu/cpu/exec_fp.c) it dies with SIGILL, so
#    until F/D is built in this is skipped (77), naming the reason.
#  - each boot gets BOOT_TIMEOUT seconds (default 60 here; about 1 s on an idle machine, about
#    10x that under SAN=1), so the whole script stays far below the runner's 300 s.
set -u
BIN=${BIN:-build/bin}
[ -x "$BIN/mtemu" ] || { echo "skipped: $BIN/mtemu does not exist yet"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '\x13\x00\x00\x00' > "$tmp/nop.bin"   # a program is needed to get the generated tree
"$BIN/mtemu" -q --max-insns 1 --dump-dtb "$tmp/virt.dtb" --bios "$tmp/nop.bin" >/dev/null 2>&1
if ! grep -qa 'rv64imafdc' "$tmp/virt.dtb"; then
  echo "skipped: $BIN/mtemu has no F/D yet (riscv,isa lacks fd); busybox needs it"
  exit 77
fi
BIN=$BIN BOOT_TIMEOUT=${BOOT_TIMEOUT:-60} exec "$(dirname "$0")/linux-boot.sh"
