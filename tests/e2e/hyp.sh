#!/usr/bin/env bash
# The mini-hypervisor (firmware/hyp, $FWBUILD/hyp.elf) on mtemu and on QEMU's virt machine with
# the H extension (-cpu rv64,h=true, the reference): the same console output and exit code; the
# run must reach the guest's shutdown after its timer interrupts and its user program; and in
# mtemu's every-access trace the guest's data stores appear at the host-physical pages the
# hypervisor gave them (the G-stage's output), not at their guest-physical addresses; and with
# guest RAM meta-paged through a tiny budget the console is the same.
# One PASS/FAIL line per check.  Exit 77 only while $BIN/mtemu does not exist.
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu
QEMU=${QEMU:-qemu-system-riscv64}
ELF=$FWBUILD/hyp.elf
[ -x "$MTEMU" ] || { echo "skipped: $MTEMU does not exist yet"; exit 77; }
[ -f "$ELF" ] || { echo "FAIL hyp/build: $ELF missing (make $ELF)"; exit 1; }
command -v "$QEMU" >/dev/null || { echo "FAIL hyp/qemu: $QEMU not found (make deps installs qemu-system-misc)"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
check() { if [ "$1" = 0 ]; then echo "PASS hyp/$2"; else echo "FAIL hyp/$2${3:+: $3}"; fails=$((fails + 1)); fi; }

timeout --kill-after=2 60 "$MTEMU" -m 256M --trace-all "$tmp/t.mtr" "$ELF" </dev/null >"$tmp/mtemu.out" 2>"$tmp/mtemu.err"
mrc=$?
timeout --kill-after=2 60 "$QEMU" -M virt -cpu rv64,h=true -m 256M -bios none -kernel "$ELF" \
  -nographic -monitor none </dev/null >"$tmp/qemu.out" 2>"$tmp/qemu.err"
qrc=$?
tr -d '\r' <"$tmp/qemu.out" >"$tmp/qemu.txt"
check $((mrc != 0)) mtemu-exit "exit $mrc: $(head -c 300 "$tmp/mtemu.err")"
check $((qrc != 0)) qemu-exit "exit $qrc: $(head -c 300 "$tmp/qemu.err")"
cmp -s "$tmp/mtemu.out" "$tmp/qemu.txt"
check $? console-equals-qemu "$(diff "$tmp/qemu.txt" "$tmp/mtemu.out" | head -5 | tr '\n' '|')"
# guest RAM meta-paged through 4 resident pages (evictions all the time, page tables included)
# and the simple timing model: the same console
timeout --kill-after=2 60 "$MTEMU" -m 256M --metapage-size 4K --metapage-budget 16K --timing=simple "$ELF" \
  </dev/null >"$tmp/mp.out" 2>"$tmp/mp.err"
cmp -s "$tmp/mp.out" "$tmp/mtemu.out"
check $? metapaged-same-console "$(head -c 300 "$tmp/mp.err")"
# what the run must have gone through (the same on both, so checked on mtemu's)
ok=0
for want in 'guest: timer interrupt 2 (scause 0x8000000000000005)' 'guest: user checksum ' \
            'hyp: guest-page fault at GPA 0x0000000080200000 -> host 0x00000000809ff000' \
            'hyp: guest shut down (reason 0)'; do
  grep -qF "$want" "$tmp/mtemu.out" || { ok=1; echo "  missing: $want"; }
done
check $ok console-milestones
# the trace: stores into the host pages backing guest-physical 0x8020_0000.. (the G-stage gives
# page i the host page 0x809ff000 - i * 4096), and none at the guest-physical data addresses
# beyond the guest image (0x8020_9000..0x8021_0000 is not host memory the hypervisor uses)
if [ -x "$BIN/metatrace" ]; then
  "$BIN/metatrace" decode "$tmp/t.mtr" --format csv --samples-only >"$tmp/t.csv" 2>"$tmp/dec.err"
  read -r pool stray < <(awk -F, 'NR > 1 && $5 == "W" {
      a = $6; sub(/^0x/, "", a); a = tolower(a); while (length(a) < 16) a = "0" a
      if (a >= "00000000809f8000" && a < "0000000080a00000") p++
      if (a >= "0000000080209000" && a < "0000000080210000") s++
    } END { print p + 0, s + 0 }' "$tmp/t.csv")
  [ "${pool:-0}" -gt 0 ] && [ "${stray:-1}" -eq 0 ]
  check $? trace-host-physical "stores in the host pool: ${pool:-?}, at guest-physical addresses: ${stray:-?}"
else
  echo "FAIL hyp/trace-host-physical: $BIN/metatrace missing"; fails=$((fails + 1))
fi
[ $fails -eq 0 ]
