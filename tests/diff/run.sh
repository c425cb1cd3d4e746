#!/usr/bin/env bash
# Differential tests: every $FWBUILD/diff/*.elf runs on QEMU's virt machine (the reference:
# qemu-system-riscv64 -M virt -bios none -kernel X -nographic, exit code from the SiFive test
# finisher) and on mtemu ($BIN/mtemu X, the same machine model); console output (stdout) and
# exit code must be identical (also with mtemu's RAM meta-paged: diff-mp/<name>).  Prints
# PASS/FAIL diff/<name>; on a difference, the first
# differing lines.  Exit 77 (skip) only while mtemu or QEMU does not exist.
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
EMU=${MTEMU:-$BIN/mtemu}
QEMU=${QEMU:-qemu-system-riscv64}
[ -e "$EMU" ] || { echo "mtemu not built yet ($EMU missing)"; exit 77; }
command -v "$QEMU" >/dev/null || { echo "$QEMU not installed (make deps)"; exit 77; }
shopt -s nullglob
elfs=("$FWBUILD"/diff/*.elf)
[ ${#elfs[@]} -gt 0 ] || { echo "no programs in $FWBUILD/diff (run make diff-tests)" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# the console's input: an empty file of our own (where /dev/null is a plain file, as in some
# sandboxes, another process's output to it would arrive on the guest's UART: LSR shows data ready)
: >"$tmp/no-input"
failed=0
for elf in "${elfs[@]}"; do
  name=$(basename "$elf" .elf)
  # the hart's extensions that QEMU 7.2 leaves off unless asked (mtemu has them always)
  timeout --kill-after=2 "${DIFF_TIMEOUT:-30}" "$QEMU" -M virt -cpu rv64,Zfh=true,zbkb=true,zbkx=true -m 128M -bios none -kernel "$elf" \
    -nographic -monitor none <"$tmp/no-input" >"$tmp/qemu.out" 2>"$tmp/qemu.err"
  qrc=$?
  # Exit codes 90..99 mean the program itself went wrong (an unexpected trap, ...): a result
  # that agrees with QEMU is still a failure then.
  if [ ! -s "$tmp/qemu.out" ] || [ "$qrc" -eq 124 ] || { [ "$qrc" -ge 90 ] && [ "$qrc" -le 99 ]; }; then
    failed=$((failed + 1)); echo "FAIL diff/$name: the reference (QEMU) printed nothing, timed out or crashed (exit $qrc)"
    sed 's/^/    qemu: /' "$tmp/qemu.err" | head -n 5
    continue
  fi
  # mtemu twice: flat RAM (diff/<name>) and RAM meta-paged through 16 resident 4 KiB pages
  # (diff-mp/<name>), which must not change anything the guest sees.
  for variant in diff diff-mp; do
    opts=(); [ $variant = diff-mp ] && opts=(--metapage-size 4K --metapage-budget 64K)
    timeout --kill-after=2 "${DIFF_TIMEOUT:-30}" "$EMU" -q -m 128M "${opts[@]}" "$elf" <"$tmp/no-input" \
      >"$tmp/emu.out" 2>"$tmp/emu.err"
    erc=$?
    if cmp -s "$tmp/qemu.out" "$tmp/emu.out" && [ "$qrc" -eq "$erc" ]; then
      echo "PASS $variant/$name (exit $erc, $(wc -l <"$tmp/emu.out") lines)"
    else
      failed=$((failed + 1))
      echo "FAIL $variant/$name: exit qemu $qrc / mtemu $erc"
      diff "$tmp/qemu.out" "$tmp/emu.out" | head -n 12 | sed 's/^/    /'
      sed 's/^/    mtemu stderr: /' "$tmp/emu.err" | tail -n 3
    fi
  done
done
[ "$failed" -eq 0 ]
