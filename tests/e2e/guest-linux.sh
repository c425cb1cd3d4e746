#!/usr/bin/env bash
# The project's Linux (build/linux/Image, unmodified) as a VS-mode guest of firmware/vmm on mtemu
# (docs/boot.md, "Linux as a guest"):
#   guest/run                 mt.run="...": the VMM's layout lines, the guest's boot through SBI
#                             (earlycon=sbi, SBI v2.0 and its extensions, the virtual PLIC and UART
#                             found, Sstc's timer, hvc0), the
#                             initramfs' shell marker, the commands' output (the guest is told of
#                             no H extension, 1 hart), poweroff through SBI SRST ends the run with 0
#   guest/shell               no mt.run: the interactive shell on hvc0, typed into (SBI getchar);
#   guest/shell-sbi-input     ... and the VMM counted the console input it passed on
#   guest/shell-ttyS0         the same on ttyS0: the VMM's trapped-and-emulated NS16550A and PLIC
#                             (output and the receive interrupt)
#   guest/trace-host-physical --trace: the guest's stores land at host-physical addresses (guest
#                             RAM is host RAM from 0x8400_0000), none at the guest-physical ones
#                             [0x8020_0000, 0x8400_0000); the kernel text's 4 KiB-leaf block at
#                             host 0x8420_0000 is sampled
#   guest/metapaged-invisible guest RAM meta-paged through 8 MiB of 4 KiB pages: the same console
#                             and a byte-identical trace
#   guest/qemu-reference      the same VMM and Image on QEMU (-cpu rv64,h=true,sstc=true): the
#                             same milestones (the VMM relies on no mtemu quirk)
#   guest/no-image, guest/small-ram   bad set-ups are refused with one line and exit status 3
# One PASS/FAIL line per case.  Exit 77 only while $BIN/mtemu does not exist.  About 10 s of CPU
# (25 s under SAN=1), plus 8 s of waits in the shell cases.
# test-timeout: 600
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
MTEMU=$BIN/mtemu
VMM=$FWBUILD/vmm.elf
IMAGE=${IMAGE:-build/linux/Image}
QEMU=${QEMU:-qemu-system-riscv64}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-300}
[ -x "$MTEMU" ] || { echo "skipped: $MTEMU does not exist yet"; exit 77; }
[ -f "$VMM" ] || { echo "FAIL guest/build: $VMM missing (make $VMM)"; exit 1; }
[ -f "$IMAGE" ] || { echo "FAIL guest/image: $IMAGE missing (make linux)"; exit 1; }
tmp=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fails=0
pass() { echo "PASS guest/$1"; }
fail() {
  echo "FAIL guest/$1: $2"
  [ -n "${3:-}" ] && [ -f "$3" ] && tr -d '\r' <"$3" | tail -6 | sed 's/^/    /'
  fails=$((fails + 1))
}

# expect NAME OUT STRING...: every fixed string appears in OUT, in this order.
expect() {
  local name=$1 out=$2; shift 2
  local rest; rest=$(tr -d '\r' <"$out")
  for want in "$@"; do
    case "$rest" in
      *"$want"*) rest=${rest#*"$want"} ;;
      *) fail "$name" "console lacks '$want' (in order); last lines:" "$out"; return 1 ;;
    esac
  done
  pass "$name"
}

# guest ARGS...: mtemu with the VMM and the Image, 256 MiB of host RAM (192 MiB for the guest)
guest() { timeout "$BOOT_TIMEOUT" "$MTEMU" -q -m 256M --bios "$VMM" --kernel "$IMAGE" "$@"; }

milestones=("vmm: guest RAM GPA 0x0000000080000000 + 0x000000000c000000 -> host 0x0000000084000000"
            "vmm: entering the guest in VS-mode" "Linux version 6.1" "Machine model: metatrace VMM guest"
            "earlycon: sbi0" "SBI specification v2.0 detected" "SBI SRST extension detected"
            "plic: plic@c000000: mapped 31 interrupts with 1 handlers for 1 contexts"
            "riscv-timer: Timer interrupt in S-mode is available via sstc extension" "printk: console [hvc0] enabled"
            "10000000.serial: ttyS0 at MMIO 0x10000000 (irq = 1, base_baud = 230400) is a 16550A"
            "Run /init as init process" "metatrace initramfs: Linux 6.1"
            "on 1 hart(s)")
run_cmd='mt.run="echo guest-probe-$((6*7)); grep -m1 ^isa /proc/cpuinfo"'

# The run is traced (--trace) and then repeated with guest RAM meta-paged.
guest --trace "$tmp/flat.mtr" --append "console=hvc0 earlycon=sbi $run_cmd" </dev/null >"$tmp/run" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  fail run "exit status $rc (expected 0 after the guest's poweroff)" "$tmp/run"
else
  # /proc/cpuinfo's isa line: what the guest was told (no "h": VS-mode has no H extension)
  expect run "$tmp/run" "${milestones[@]}" "guest-probe-42" "isa		: rv64imafdc_sstc" "mt: exit status 0" \
    "reboot: Power down" "vmm: guest shut down (type 0, reason 0)"
fi

# The interactive shell, on hvc0 (the VMM reads the host UART for the guest's SBI getchar) and on
# ttyS0 (the virtual UART's receive interrupt through the virtual PLIC, raised by the VMM's poll).
shell_case() {
  local name=$1 console=$2 out=$tmp/$1
  rm -f "$tmp/in"; mkfifo "$tmp/in"
  guest --append "console=$console earlycon=sbi" <"$tmp/in" >"$out" 2>&1 &
  pid=$!
  exec 3>"$tmp/in"
  for _ in $(seq 1 "$BOOT_TIMEOUT"); do
    grep -q -e "mt: starting a shell" -e "Kernel panic" "$out" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break # the VMM stopped the guest
    sleep 1
  done
  sleep 2 # the shell prints its prompt and opens the console before we type
  printf 'echo typed-$((40+2))-ok\n' >&3
  sleep 2
  printf 'exit\n' >&3
  wait "$pid"; local rc=$?; pid=
  exec 3>&-
  if [ $rc -ne 0 ]; then
    fail "$name" "exit status $rc (expected 0 after exit + poweroff)" "$out"
  else
    expect "$name" "$out" "metatrace initramfs: Linux 6.1" "mt: starting a shell" "typed-42-ok" \
      "reboot: Power down" "vmm: guest shut down (type 0, reason 0)"
  fi
}
shell_case shell hvc0
if grep -q "console out [0-9]*, in [1-9]" "$tmp/shell"; then pass shell-sbi-input
else fail shell-sbi-input "the VMM counted no SBI console input" "$tmp/shell"; fi
shell_case shell-ttyS0 ttyS0

# The trace: host-physical addresses only.  Then the same run meta-paged: the same console and
# the same trace, byte for byte.
guest --trace "$tmp/mp.mtr" --metapage-size 4K --metapage-budget 8M --append "console=hvc0 earlycon=sbi $run_cmd" \
  </dev/null >"$tmp/mp.out" 2>&1
rc2=$?
if [ ! -f "$tmp/flat.mtr" ] || [ ! -x "$BIN/metatrace" ]; then
  fail trace-host-physical "no trace from the run (or $BIN/metatrace missing)" "$tmp/run"
else
  "$BIN/metatrace" decode "$tmp/flat.mtr" --format csv --samples-only >"$tmp/t.csv" 2>"$tmp/dec.err"
  # columns: cycle,kind,section,format,rw,address,value
  read -r host stray text < <(awk -F, 'function hex16(a) { sub(/^0x/, "", a); a = tolower(a)
        while (length(a) < 16) a = "0" a; return a }
      NR > 1 { a = hex16($6)
        if ($5 == "W" && a >= "0000000084000000" && a < "0000000090000000") h++
        if ($5 == "W" && a >= "0000000080200000" && a < "0000000084000000") s++
        if (a >= "0000000084200000" && a < "0000000084400000") t++ }
      END { print h + 0, s + 0, t + 0 }' "$tmp/t.csv")
  if [ "${host:-0}" -gt 1000 ] && [ "${stray:-1}" -eq 0 ] && [ "${text:-0}" -gt 1000 ]; then
    pass "trace-host-physical ($host stores sampled in guest RAM's host range, $text samples in the 4 KiB-leaf block)"
  else
    fail trace-host-physical "stores at host addresses ${host:-?}, at guest-physical ones ${stray:-?}, kernel text ${text:-?}" "$tmp/dec.err"
  fi
fi
if [ $rc2 -ne 0 ]; then
  fail metapaged-invisible "meta-paged run exit status $rc2" "$tmp/mp.out"
elif ! cmp -s "$tmp/run" "$tmp/mp.out"; then
  fail metapaged-invisible "the console differs from the flat run's: $(diff "$tmp/run" "$tmp/mp.out" | head -4 | tr '\n' '|')"
elif ! cmp -s "$tmp/flat.mtr" "$tmp/mp.mtr"; then
  fail metapaged-invisible "the trace differs from the flat run's"
else
  pass metapaged-invisible
fi

# QEMU, the reference, runs the same VMM and Image (its loader stages a raw Image at 0x8020_0000
# after a bios below 2 MiB and passes the tree in a1, as mtemu's does).
if command -v "$QEMU" >/dev/null; then
  timeout "$BOOT_TIMEOUT" "$QEMU" -M virt -cpu rv64,h=true,sstc=true -m 256M -nographic -monitor none \
    -bios "$VMM" -kernel "$IMAGE" -append "console=hvc0 earlycon=sbi $run_cmd" </dev/null >"$tmp/qemu" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    fail qemu-reference "QEMU exit status $rc" "$tmp/qemu"
  else
    expect qemu-reference "$tmp/qemu" "${milestones[@]}" "guest-probe-42" "isa		: rv64imafdc_sstc" \
      "mt: exit status 0" "vmm: guest shut down (type 0, reason 0)"
  fi
else
  fail qemu-reference "$QEMU not found (make deps installs qemu-system-misc)"
fi

# Refused set-ups: one line naming the problem, exit status 3.
head -c 8192 /dev/zero >"$tmp/not-an-image"
timeout 60 "$MTEMU" -q -m 256M --bios "$VMM" --kernel "$tmp/not-an-image" </dev/null >"$tmp/bad" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -q "vmm: no RISC-V Linux Image at 0x80200000" "$tmp/bad"; then pass no-image
else fail no-image "exit status $rc" "$tmp/bad"; fi
timeout 60 "$MTEMU" -q -m 64M --bios "$VMM" --kernel "$IMAGE" </dev/null >"$tmp/small" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -q "vmm: host RAM: must start at 0x80000000 and hold" "$tmp/small"; then pass small-ram
else fail small-ram "exit status $rc" "$tmp/small"; fi
[ $fails -eq 0 ]
