#!/usr/bin/env bash
# The console escape of mtemu's serial console (emu/devices/console.h): Ctrl-A x ends the run with exit
# code 0 and says so, whatever the guest is doing (here: U-Boot waiting at its prompt, which
# would otherwise wait forever); Ctrl-A followed by anything else does not quit.
set -u
BIN=${BIN:-build/bin}
UBOOT=/usr/lib/u-boot/qemu-riscv64/u-boot.bin
[ -x "$BIN/mtemu" ] || { echo "skipped: $BIN/mtemu does not exist"; exit 77; }
[ -f "$UBOOT" ] || { echo "FAIL console: $UBOOT missing (make deps installs u-boot-qemu)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

printf '\001x' | timeout 60 "$BIN/mtemu" -q --bios "$UBOOT" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q 'terminated (Ctrl-A x)' "$tmp/err"; then
  echo "PASS console-ctrl-a-x"
else
  echo "FAIL console-ctrl-a-x (exit $rc)"; tail -3 "$tmp/err"
fi

# Ctrl-A z is not an escape: mtemu keeps running (U-Boot at its prompt) until the timeout.
printf '\001z' | timeout 5 "$BIN/mtemu" -q --bios "$UBOOT" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 124 ]; then echo "PASS console-other-escape-ignored"; else echo "FAIL console-other-escape-ignored (exit $rc)"; fi
