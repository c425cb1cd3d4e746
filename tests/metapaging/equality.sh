#!/usr/bin/env bash
# Meta-paging must be invisible to the guest, and its online simulations must be what a real run
# does (docs/metapaging.md).  For each program:
#   1. run it with an unlimited budget (flat RAM), with online simulations of every tiny
#      configuration below;
#   2. run it once per configuration with that real budget and policy;
#   3. require the same console output, exit code, instruction and cycle counts and hash of all guest RAM
#      as run 1 ("PASS equality/<prog>/<config>"), and the run's pager counts equal to run 1's
#      online counts for that configuration ("PASS online/<prog>/<config>").
# Programs: tests/metapaging's mp-small (self-checking, memory-bound; every configuration) and
# the ISA test ELFs (M, S and U mode, Sv39 page-table walks included; the 2 x 4 KiB budget, the
# one that makes them thrash, under every policy).
# It boots Linux on 4 harts nine times: about 215 s of CPU on a 2-core machine, over the runner's
# 300 s under ASan + UBSan (make SAN=1 test), hence its own limit; its runs go two at a time.
# test-timeout: 900
set -u
BIN=${BIN:-build/bin}
FWBUILD=${FWBUILD:-build/firmware}
EMU=${MTEMU:-$BIN/mtemu}
if [ ! -x "$EMU" ]; then
  echo "mtemu not built yet ($EMU missing)"; exit 77
fi
shopt -s nullglob
progs=("$FWBUILD"/metapaging/mp-small.elf "$FWBUILD"/isa/*.elf)
if [ ! -e "$FWBUILD/metapaging/mp-small.elf" ]; then
  echo "FAIL equality/setup: $FWBUILD/metapaging/mp-small.elf missing (make metapaging-workloads)"
  exit 1
fi
# size:budget pairs: 2 metapages of 4 KiB, 16 of 64 KiB, 2 of 2 MiB (the largest size)
configs=("4K:8K" "64K:1M" "2M:4M")
policies=(lru fifo clock random)
sim_spec=$(IFS=,; for c in "${configs[@]}"; do printf '%s:*,' "$c"; done)
sim_spec=${sim_spec%,}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

bytes() { # 4K -> 4096
  local v=${1%[KMG]} u=${1: -1}
  case $u in K) echo $((v << 10));; M) echo $((v << 20));; G) echo $((v << 30));; *) echo "$1";; esac
}
# One line "faults F zero_fills Z backing_reads R evictions E writebacks W bytes_in I bytes_out O"
pager_counts() {
  local f=$1 out="" k
  for k in faults zero_fills backing_reads evictions writebacks bytes_in bytes_out; do
    out+="$k $(sed -n "s/^    \"$k\": \([0-9]*\),*$/\1/p" "$f" | head -n1) "
  done
  echo "$out"
}
online_counts() { # file size budget policy
  local line k out=""
  line=$(grep -F "{\"metapage_bytes\": $2, \"budget_bytes\": $3, \"policy\": \"$4\"" "$1")
  for k in faults zero_fills backing_reads evictions writebacks bytes_in bytes_out; do
    out+="$k $(sed -n "s/.*\"$k\": \([0-9]*\).*/\1/p" <<<"$line") "
  done
  echo "$out"
}
run() { # name args... -> $tmp/name.{out,err,rc}
  local name=$1; shift
  timeout --kill-after=2 "${EQ_TIMEOUT:-60}" "$EMU" -q -m 16M --stats --ram-hash "$@" \
    >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
  echo $? >"$tmp/$name.rc"
}
summary() { # what must be equal: console, exit code, instruction and cycle counts, RAM hash
  cat "$tmp/$1.out"
  echo "exit $(cat "$tmp/$1.rc")"
  grep -E "^(instructions|cycles|ram-hash) " "$tmp/$1.err"
}

# Phase 1 runs every mtemu run, two at a time (tests/lib/jobs.sh): no run depends on another, each
# writes its own files.  Phase 2 compares them in a fixed order, so the output does not depend on
# which run ended first.  The Linux boots go first: they are the longest runs.
. "$(dirname "$0")/../lib/jobs.sh"
# A run's files: $tmp/<key>.{out,err,rc,json}; the key names the program and the configuration.
key() { local k="$1/$2"; echo "${k//\//_}"; }
SBI=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
have_linux=0
[ -f build/linux/Image ] && [ -f "$SBI" ] && have_linux=1
boot=(-smp 4 -m 256M --bios "$SBI" --kernel build/linux/Image --append 'console=ttyS0 mt.run="poweroff -f"')
smp_run() { # name args...
  local name=$1; shift
  timeout --kill-after=2 "${EQ_TIMEOUT:-120}" "$EMU" -q --stats --ram-hash "${boot[@]}" "$@" \
    >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
  echo $? >"$tmp/$name.rc"
}
smp_configs=(4K:1M 64K:8M)
# every program's configurations ("size:budget"): the ISA tests are small, the 2 x 4 KiB budget
# is the one that thrashes them
prog_configs() { if [[ $1 == mp-* ]]; then echo "${configs[@]}"; else echo "${configs[0]}"; fi; }

jobs_begin
if [ "$have_linux" = 1 ]; then
  job smp_run "$(key linux-smp4 ref)" --metapage-sim "4K:1M:*,64K:8M:*" --stats-json "$tmp/$(key linux-smp4 ref).json"
  for c in "${smp_configs[@]}"; do
    size=${c%%:*}; budget=${c#*:}
    for p in "${policies[@]}"; do
      k=$(key linux-smp4 "$size:$budget:$p")
      job smp_run "$k" --metapage-size "$size" --metapage-budget "$budget" --metapage-policy "$p" \
        --stats-json "$tmp/$k.json"
    done
  done
fi
for elf in "${progs[@]}"; do
  prog=$(basename "$elf" .elf)
  job run "$(key "$prog" ref)" --metapage-sim "$sim_spec" --stats-json "$tmp/$(key "$prog" ref).json" "$elf"
  for c in $(prog_configs "$prog"); do
    size=${c%%:*}; budget=${c#*:}
    for p in "${policies[@]}"; do
      k=$(key "$prog" "$size:$budget:$p")
      job run "$k" --metapage-size "$size" --metapage-budget "$budget" --metapage-policy "$p" \
        --stats-json "$tmp/$k.json" "$elf"
    done
  done
done
elf=$FWBUILD/metapaging/mp-small.elf
job run fc-ref "$elf"
job run fc-charged --metapage-budget 64K --metapage-fault-cycles 1000 --stats-json "$tmp/fc-charged.json" "$elf"
jobs_end

failed=0
for elf in "${progs[@]}"; do
  prog=$(basename "$elf" .elf)
  ref=$(key "$prog" ref)
  if ! grep -q '^ram-hash ' "$tmp/$ref.err" || ! grep -q '^instructions ' "$tmp/$ref.err"; then
    echo "FAIL equality/$prog: the reference run printed no instruction count or RAM hash"
    sed 's/^/    /' "$tmp/$ref.err" | tail -n 5
    failed=1; continue
  fi
  summary "$ref" >"$tmp/$ref.sum"
  for c in $(prog_configs "$prog"); do
    size=${c%%:*}; budget=${c#*:}
    for p in "${policies[@]}"; do
      name="$prog/$size:$budget:$p"
      k=$(key "$prog" "$size:$budget:$p")
      summary "$k" >"$tmp/$k.sum"
      if diff -q "$tmp/$ref.sum" "$tmp/$k.sum" >/dev/null; then
        echo "PASS equality/$name"
      else
        echo "FAIL equality/$name"
        diff "$tmp/$ref.sum" "$tmp/$k.sum" | head -n 8 | sed 's/^/    /'
        grep -m2 'meta-pager' "$tmp/$k.err" | sed 's/^/    /'
        failed=1
      fi
      want=$(online_counts "$tmp/$ref.json" "$(bytes "$size")" "$(bytes "$budget")" "$p")
      got=$(pager_counts "$tmp/$k.json")
      if [[ $want =~ ^([a-z_]+\ [0-9]+\ )+$ ]] && [ "$want" = "$got" ]; then
        echo "PASS online/$name"
      else
        echo "FAIL online/$name"
        echo "    online: $want"
        echo "    real:   $got"
        failed=1
      fi
    done
  done
done
# -smp 4: Debian's OpenSBI and Linux to poweroff, every hart behind one meta-pager (each hart's
# observer, every hart's TLBs dropped on an eviction): the same as flat RAM for every policy at a
# budget that thrashes, and the online simulations count what the real pager does.
if [ "$have_linux" = 1 ]; then
  smp_sum() { cat "$tmp/$1.out"; echo "exit $(cat "$tmp/$1.rc")"; grep -E "^(harts|cycles|ram-hash) " "$tmp/$1.err"; }
  ref=$(key linux-smp4 ref)
  smp_sum "$ref" >"$tmp/$ref.sum"
  if ! grep -q 'reboot: Power down' "$tmp/$ref.out"; then
    echo "FAIL equality/linux-smp4: the flat boot did not power off"; failed=1
  else
    for c in "${smp_configs[@]}"; do
      size=${c%%:*}; budget=${c#*:}
      for p in "${policies[@]}"; do
        name="linux-smp4/$size:$budget:$p"
        k=$(key linux-smp4 "$size:$budget:$p")
        smp_sum "$k" >"$tmp/$k.sum"
        if diff -q "$tmp/$ref.sum" "$tmp/$k.sum" >/dev/null; then echo "PASS equality/$name"
        else echo "FAIL equality/$name"; diff "$tmp/$ref.sum" "$tmp/$k.sum" | head -n 8 | sed 's/^/    /'; failed=1; fi
        want=$(online_counts "$tmp/$ref.json" "$(bytes "$size")" "$(bytes "$budget")" "$p")
        got=$(pager_counts "$tmp/$k.json")
        if [[ $want =~ ^([a-z_]+\ [0-9]+\ )+$ ]] && [ "$want" = "$got" ] && [[ ! $got =~ evictions\ 0\  ]]; then
          echo "PASS online/$name"
        else
          echo "FAIL online/$name"; echo "    online: $want"; echo "    real:   $got"; failed=1
        fi
      done
    done
  fi
fi
# --metapage-fault-cycles N: the same run, N more cycles per fault (exactly), nothing else changes.
base=$(sed -n 's/^cycles *\([0-9]*\).*/\1/p' "$tmp/fc-ref.err")
cyc=$(sed -n 's/^cycles *\([0-9]*\).*/\1/p' "$tmp/fc-charged.err")
faults=$(sed -n 's/^    "faults": \([0-9]*\),$/\1/p' "$tmp/fc-charged.json")
if [ -n "$base" ] && [ -n "$faults" ] && [ "$faults" -gt 0 ] && [ "$cyc" = $((base + 1000 * faults)) ] &&
   diff -q "$tmp/fc-ref.out" "$tmp/fc-charged.out" >/dev/null; then
  echo "PASS fault-cycles/mp-small"
else
  echo "FAIL fault-cycles/mp-small: cycles $cyc, expected $base + 1000 x $faults"
  failed=1
fi
[ "$failed" -eq 0 ]
