#!/usr/bin/env bash
# Boots build/linux/Image (make linux builds it when missing) behind Debian's OpenSBI on mtemu:
#   mtemu -m 256M [-smp N] --bios fw_jump.bin --kernel build/linux/Image --append "..."
# and checks the console from OpenSBI's banner to the busybox initramfs, for 1, 4 and 8 harts:
#   linux-run-1hart / -4harts / -8harts  mt.run="..." runs commands, prints their output, powers off
#                                        ("smp: Brought up 1 node, N CPU(s)": every hart came up)
#   linux-shell-1hart                    no mt.run: an interactive shell on the console; we type
#                                        into it and check the answer, then `exit` powers off
# One PASS/FAIL line per case.  Exit 77 only while $BIN/mtemu does not exist.
#   LINUX_BOOT_EMU=qemu tests/e2e/linux-boot.sh   runs the same checks on QEMU (the reference),
#                                                 to validate this script and the Image.
set -u
BIN=${BIN:-build/bin}
MTEMU=$BIN/mtemu
SBI=${SBI:-/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin}
IMAGE=build/linux/Image
BOOT_TIMEOUT=${BOOT_TIMEOUT:-600}
emu=${LINUX_BOOT_EMU:-mtemu}

if [ "$emu" = mtemu ] && [ ! -x "$MTEMU" ]; then
  echo "skipped: $MTEMU does not exist yet"
  exit 77
fi
[ -f "$SBI" ] || { echo "FAIL linux-boot: $SBI missing (make deps installs opensbi)"; exit 1; }
if [ ! -f "$IMAGE" ]; then
  make --no-print-directory linux >&2 || { echo "FAIL linux-build: make linux failed"; exit 1; }
fi

tmp=$(mktemp -d)
cleanup() { [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

# boot HARTS APPEND OUT [STDIN]: runs the emulator in the background (console -> OUT), pid in $pid.
boot() {
  local harts=$1 append=$2 out=$3 in=${4:-/dev/null}
  if [ "$emu" = qemu ]; then
    timeout "$BOOT_TIMEOUT" qemu-system-riscv64 -M virt -m 256M -smp "$harts" -nographic \
      -monitor none -bios "$SBI" -kernel "$IMAGE" -append "$append" < "$in" > "$out" 2>&1 &
  else
    local smp=()
    [ "$harts" -gt 1 ] && smp=(-smp "$harts")
    timeout "$BOOT_TIMEOUT" "$MTEMU" -m 256M "${smp[@]}" --bios "$SBI" --kernel "$IMAGE" \
      --append "$append" < "$in" > "$out" 2>&1 &
  fi
  pid=$!
}

# finish OUT: waits for the emulator; a kernel panic ends the wait at once (a panicked kernel
# spins forever), returning 125.  Returns the emulator's exit status otherwise.
finish() {
  local out=$1
  while kill -0 "$pid" 2>/dev/null; do
    if grep -q "Kernel panic - not syncing" "$out" 2>/dev/null; then
      sleep 1; kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
      return 125
    fi
    sleep 0.5
  done
  wait "$pid"; local rc=$?; pid=
  return $rc
}

# expect OUT NAME PATTERN...: every fixed string must appear in OUT, in this order.
expect() {
  local out=$1 name=$2; shift 2
  local rest; rest=$(tr -d '\r' < "$out")
  for want in "$@"; do
    case "$rest" in
      *"$want"*) rest=${rest#*"$want"} ;;
      *) echo "FAIL $name: console lacks '$want' (in order); last lines:"
         tr -d '\r' < "$out" | tail -8 | sed 's/^/    /'
         return 1 ;;
    esac
  done
  echo "PASS $name"
}

failures=0
common=("OpenSBI v" "Linux version 6.1" "Run /init as init process" "metatrace initramfs: Linux 6.1")

for harts in 1 4 8; do
  name=linux-run-${harts}hart$([ "$harts" -gt 1 ] && echo s)
  boot "$harts" 'console=ttyS0 earlycon=sbi mt.run="echo mt-probe-$((6*7)); grep -c ^processor /proc/cpuinfo"' "$tmp/run$harts"
  finish "$tmp/run$harts"; rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $name: exit status $rc (expected 0 after poweroff; 125 = kernel panic)"
    grep -m3 -E "unhandled signal|Kernel panic|Oops" "$tmp/run$harts" | sed 's/^/    /'
    tail -5 "$tmp/run$harts" | sed 's/^/    /'
    failures=$((failures + 1)); continue
  fi
  expect "$tmp/run$harts" "$name" "OpenSBI v" "Linux version 6.1" "smp: Brought up 1 node, $harts CPU" \
    "Run /init as init process" "metatrace initramfs: Linux 6.1" "on $harts hart(s)" "mt-probe-42" \
    "$(printf '\n%s' "$harts")" "mt: exit status 0" "reboot: Power down" || failures=$((failures + 1))
done

# The interactive path: wait for the shell's announcement, then type.
name=linux-shell-1hart
mkfifo "$tmp/in"
boot 1 "console=ttyS0 earlycon=sbi" "$tmp/shell" "$tmp/in"
exec 3> "$tmp/in"
for _ in $(seq 1 "$BOOT_TIMEOUT"); do
  grep -q -e "mt: starting a shell" -e "Kernel panic" "$tmp/shell" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
sleep 2   # let the shell print its prompt and open the console before we type
printf 'echo shell-$((40+2))-ok\n' >&3
sleep 2
printf 'exit\n' >&3
finish "$tmp/shell"; rc=$?
exec 3>&-
if [ $rc -ne 0 ]; then
  echo "FAIL $name: exit status $rc (expected 0 after exit + poweroff; 125 = kernel panic)"
  grep -m3 -E "unhandled signal|Kernel panic|Oops" "$tmp/shell" | sed 's/^/    /'
  tail -5 "$tmp/shell" | sed 's/^/    /'
  failures=$((failures + 1))
else
  expect "$tmp/shell" "$name" "${common[@]}" "mt: starting a shell" "shell-42-ok" "reboot: Power down" \
    || failures=$((failures + 1))
fi
[ $failures -eq 0 ]
