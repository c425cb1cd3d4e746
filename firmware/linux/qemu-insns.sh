#!/usr/bin/env bash
# Counts the guest instructions QEMU executes in a run, by privilege level: the reference numbers
# for mtemu's --stats (docs/firmware.md).  QEMU 7.2 in Debian has no TCG plugins, so this uses
# its logs: `-d in_asm` prints each translation block (TB) once with its instructions and
# privilege, `-d exec,nochain` prints every TB execution; the sum of sizes over executions is
# the instruction count (a TB cut short by a trap counts whole: an over-count of a few per trap).
# -icount shift=0 makes guest time advance with instructions, so delay loops, and therefore the
# count, do not depend on the host's speed.
#
#   firmware/linux/qemu-insns.sh QEMU-ARGS...     e.g.  -M virt -bios none -kernel x.elf
# Prints "insns total=N M=N S=N U=N"; the guest console goes to stderr.
set -euo pipefail
[ $# -gt 0 ] || { echo "usage: $0 QEMU-ARGS..." >&2; exit 2; }
qemu-system-riscv64 "$@" -icount shift=0 -display none -monitor none -serial file:/dev/stderr \
  -d in_asm,exec,nochain -D /dev/stdout |
awk '
  /^IN:/            { inblk = 1; cnt = 0; priv = "?"; next }
  inblk && /^Priv:/ { priv = $2; sub(";", "", priv); next }
  inblk && /^0x[0-9a-f]+:/ { cnt++; next }
  inblk && /^$/     { inblk = 0; pend = cnt; pendpriv = priv; next }
  /^Trace /         { ptr = $3
                      if (pend > 0) { size[ptr] = pend; pv[ptr] = pendpriv; pend = 0 }
                      total += size[ptr]; by[pv[ptr]] += size[ptr] }
  END { printf "insns total=%d M=%d S=%d U=%d\n", total, by["3"], by["1"], by["0"] }'
