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
# It boots Linux on 4 harts nine times: about 215 s on a 2-core machine, over the runner's 300 s
# under ASan + UBSan (make SAN=1 test), hence its own limit:
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

failed=0
for elf in "${progs[@]}"; do
  prog=$(basename "$elf" .elf)
  run ref --metapage-sim "$sim_spec" --stats-json "$tmp/ref.json" "$elf"
  if ! grep -q '^ram-hash ' "$tmp/ref.err" || ! grep -q '^instructions ' "$tmp/ref.err"; then
    echo "FAIL equality/$prog: the reference run printed no instruction count or RAM hash"
    sed 's/^/    /' "$tmp/ref.err" | tail -n 5
    failed=1; continue
  fi
  summary ref >"$tmp/ref.sum"
  # The ISA tests are small: the 2 x 4 KiB budget is the one that thrashes them.
  prog_configs=("${configs[@]}")
  [[ $prog == mp-* ]] || prog_configs=("${configs[0]}")
  for c in "${prog_configs[@]}"; do
    size=${c%%:*}; budget=${c#*:}
    for p in "${policies[@]}"; do
      name="$prog/$size:$budget:$p"
      run paged --metapage-size "$size" --metapage-budget "$budget" --metapage-policy "$p" \
        --stats-json "$tmp/paged.json" "$elf"
      summary paged >"$tmp/paged.sum"
      if diff -q "$tmp/ref.sum" "$tmp/paged.sum" >/dev/null; then
        echo "PASS equality/$name"
      else
        echo "FAIL equality/$name"
        diff "$tmp/ref.sum" "$tmp/paged.sum" | head -n 8 | sed 's/^/    /'
        grep -m2 'meta-pager' "$tmp/paged.err" | sed 's/^/    /'
        failed=1
      fi
      want=$(online_counts "$tmp/ref.json" "$(bytes "$size")" "$(bytes "$budget")" "$p")
      got=$(pager_counts "$tmp/paged.json")
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
SBI=/usr/lib/riscv64-linux-gnu/opensbi/generic/fw_jump.bin
if [ -f build/linux/Image ] && [ -f "$SBI" ]; then
  boot=(-smp 4 -m 256M --bios "$SBI" --kernel build/linux/Image --append 'console=ttyS0 mt.run="poweroff -f"')
  smp_run() { # name args...
    local name=$1; shift
    timeout --kill-after=2 "${EQ_TIMEOUT:-120}" "$EMU" -q --stats --ram-hash "${boot[@]}" "$@" \
      >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
    echo $? >"$tmp/$name.rc"
  }
  smp_sum() { cat "$tmp/$1.out"; echo "exit $(cat "$tmp/$1.rc")"; grep -E "^(harts|cycles|ram-hash) " "$tmp/$1.err"; }
  smp_run ref --metapage-sim "4K:1M:*,64K:8M:*" --stats-json "$tmp/ref.json"
  smp_sum ref >"$tmp/ref.sum"
  if ! grep -q 'reboot: Power down' "$tmp/ref.out"; then
    echo "FAIL equality/linux-smp4: the flat boot did not power off"; failed=1
  else
    for c in 4K:1M 64K:8M; do
      size=${c%%:*}; budget=${c#*:}
      for p in "${policies[@]}"; do
        name="linux-smp4/$size:$budget:$p"
        smp_run paged --metapage-size "$size" --metapage-budget "$budget" --metapage-policy "$p" \
          --stats-json "$tmp/paged.json"
        smp_sum paged >"$tmp/paged.sum"
        if diff -q "$tmp/ref.sum" "$tmp/paged.sum" >/dev/null; then echo "PASS equality/$name"
        else echo "FAIL equality/$name"; diff "$tmp/ref.sum" "$tmp/paged.sum" | head -n 8 | sed 's/^/    /'; failed=1; fi
        want=$(online_counts "$tmp/ref.json" "$(bytes "$size")" "$(bytes "$budget")" "$p")
        got=$(pager_counts "$tmp/paged.json")
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
elf=$FWBUILD/metapaging/mp-small.elf
run ref "$elf"
run charged --metapage-budget 64K --metapage-fault-cycles 1000 --stats-json "$tmp/charged.json" "$elf"
base=$(sed -n 's/^cycles *\([0-9]*\).*/\1/p' "$tmp/ref.err")
cyc=$(sed -n 's/^cycles *\([0-9]*\).*/\1/p' "$tmp/charged.err")
faults=$(sed -n 's/^    "faults": \([0-9]*\),$/\1/p' "$tmp/charged.json")
if [ -n "$base" ] && [ -n "$faults" ] && [ "$faults" -gt 0 ] && [ "$cyc" = $((base + 1000 * faults)) ] &&
   diff -q "$tmp/ref.out" "$tmp/charged.out" >/dev/null; then
  echo "PASS fault-cycles/mp-small"
else
  echo "FAIL fault-cycles/mp-small: cycles $cyc, expected $base + 1000 x $faults"
  failed=1
fi
[ "$failed" -eq 0 ]
