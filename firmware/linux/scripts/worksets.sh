#!/bin/sh
# A long userland workload for trace-fidelity runs (mt.script=worksets.sh mt.scale=N): real
# busybox programs over the tmpfs in /tmp -- awk generating data, sort, uniq, gzip/gunzip, tar,
# find, md5sum -- with two processes at a time, and a working set that grows over each group of
# four rounds and moves (every round writes a new directory and removes the one from two rounds
# before).  Deterministic: all data comes from a fixed LCG in awk (exact in awk's doubles), so
# the same scale prints the same checksum on every correct machine.
#   mt.scale=N   rounds (default 1); tests/fidelity/fidelity.sh measures emulated seconds per round
# Prints one "worksets: round R sum S" line per round and "worksets: scale N checksum C" at the end,
# C the md5 of every round's results.
# (Elsewhere, e.g. to compute the checksum on the host: MT_SCALE=N WORKSETS_DIR=DIR sh worksets.sh)
scale=${MT_SCALE:-1}
case "$(cat /proc/cmdline 2>/dev/null)" in
  *mt.scale=*) scale=$(sed 's/.*mt\.scale=\([0-9]*\).*/\1/' /proc/cmdline) ;;
esac
[ -n "$scale" ] && [ "$scale" -gt 0 ] 2>/dev/null || { echo "worksets: bad mt.scale"; exit 2; }
w=${WORKSETS_DIR:-/tmp/worksets}
rm -rf "$w" && mkdir -p "$w" || exit 1
: > "$w/sums"

# gen SEED LINES > FILE: LINES lines of "key number word", pseudo-random from SEED.
gen() {
  awk -v seed="$1" -v n="$2" 'BEGIN {
    x = seed; split("alpha beta gamma delta epsilon zeta eta theta iota kappa", wd, " ")
    for (i = 0; i < n; i++) {
      x = (x * 69069 + 1) % 4294967296; k = int(x / 65536)
      x = (x * 69069 + 1) % 4294967296; v = int(x / 256) % 100000
      printf "k%05d %d %s%d\n", k % 40000, v, wd[1 + v % 10], k % 97
    }
  }'
}

# work DIR SEED LINES: one process's job; its results go to DIR/out.
work() {
  d=$1
  mkdir -p "$d/src"
  gen "$2" "$3" > "$d/data"
  sort "$d/data" > "$d/sorted"
  sort -n -k2 "$d/data" | awk '{ s += $2 } NR % 1000 == 0 { print NR, s }' > "$d/runsum"
  cut -d' ' -f3 "$d/data" | sort | uniq -c | sort -rn > "$d/words"
  gzip -c "$d/sorted" > "$d/sorted.gz"
  gunzip -c "$d/sorted.gz" | cmp - "$d/sorted" || echo "worksets: gzip round trip differs in $d"
  split -l 2000 "$d/sorted" "$d/src/part."
  tar -cf "$d/src.tar" -C "$d" src
  mkdir -p "$d/copy" && tar -xf "$d/src.tar" -C "$d/copy"
  find "$d/copy" -type f | sort | while read -r f; do md5sum < "$f"; done | md5sum > "$d/tree"
  # (not the .gz bytes: another gzip may compress differently; the round trip is checked above)
  { md5sum < "$d/sorted"; md5sum < "$d/runsum"; md5sum < "$d/words"; cat "$d/tree"; } > "$d/out"
  rm -rf "$d/src" "$d/copy" "$d/src.tar"
}

r=1
while [ "$r" -le "$scale" ]; do
  lines=$(( 6000 + 6000 * ((r - 1) % 4) ))   # the working set grows over four rounds, then restarts
  work "$w/r$r.a" $((r * 2 + 1)) "$lines" &
  work "$w/r$r.b" $((r * 2 + 2)) $((lines / 2))
  wait
  sum=$(cat "$w/r$r.a/out" "$w/r$r.b/out" | md5sum | cut -d' ' -f1)
  echo "round $r $sum" >> "$w/sums"
  echo "worksets: round $r sum $sum"
  rm -rf "$w/r$((r - 2)).a" "$w/r$((r - 2)).b"   # the working set moves on
  r=$((r + 1))
done
echo "worksets: scale $scale checksum $(md5sum < "$w/sums" | cut -d' ' -f1)"
rm -rf "$w"
