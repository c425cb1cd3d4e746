#!/usr/bin/env bash
# make demo: the main job end to end, on built-in defaults.
#
#   1. firmware workloads run on mtemu with the trace unit recording from reset at the seed's
#      defaults (24 / 2048 cycles per sample, 1 s bursts, 10 s spans, 48-bit / 32-bit formats);
#   2. the same unit with the seed's 1:10 burst/span ratio scaled down (100 us / 1 ms) so that a
#      run of a few milliseconds alternates sections, beside the seed's size formula;
#   3. the question itself: an every-access ground-truth trace, `metatrace policy` for metapage
#      sizes 4K..2M under an 8 MB budget, and a recommendation;
#   4. the meta-pager inside mtemu evaluating the recommended configuration online: its fault
#      count must equal the trace analysis';
#   5. the seed's premise: from the *sampled* trace alone (reconstructed), is the recommendation
#      the same as from ground truth?
# Everything lands in build/demo/. Nothing here is typed in: every figure comes from a run.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/bin}
FW=${FWBUILD:-build/firmware}
OUT=build/demo
mkdir -p "$OUT"
rm -f "$OUT"/*.mtr "$OUT"/*.csv "$OUT"/*.log

MTEMU=$BIN/mtemu
MT=$BIN/metatrace
T0=$SECONDS
step() { printf '\n== %s  (%ds)\n' "$*" $((SECONDS - T0)); }
stat_of() { awk -v k="$1" '$1 == k { print $2; exit }' "$2"; }

step "1. workloads traced by the trace unit at the seed's defaults"
printf '%-8s %-22s %12s %10s %10s %10s %8s %9s\n' workload params instructions "emul ms" samples "trace B" "B/sample" "vs 6 B"
for spec in "seq size=4M" "random size=4M" "pchase size=4M stride=64" "matmul size=96" "qsort size=256K"; do
  set -- $spec; w=$1; shift; params="$*"
  "$MTEMU" -q --stats --append "$params" --trace "$OUT/$w.mtr" "$FW/$w.elf" >"$OUT/$w.out" 2>"$OUT/$w.log"
  insns=$(stat_of instructions "$OUT/$w.log"); cycles=$(stat_of cycles "$OUT/$w.log")
  samples=$(awk '$1 == "trace.samples" { print $2; exit }' "$OUT/$w.log")
  bytes=$(stat -c %s "$OUT/$w.mtr")
  awk -v w="$w" -v p="$params" -v i="$insns" -v c="$cycles" -v s="$samples" -v b="$bytes" 'BEGIN {
    printf "%-8s %-22s %12d %10.3f %10d %10d %8.3f %8.1fx\n", w, p, i, c / 1e6, s, b, b / s, 6 * s / b }'
done
echo "(B/sample: the .mtr file, zstd frames and index included, per recorded sample; 'vs 6 B':"
echo " how much smaller than the seed's raw 48-bit samples. The whole runs fit in the first 1 s burst.)"

step "2. bursts and spans: the seed's 1:10 schedule scaled to 100 us / 1 ms"
"$MTEMU" -q --stats --append "size=8M stride=64" --trace-len-h 100us --trace-len-l 1ms \
  --trace "$OUT/pchase-sampled.mtr" "$FW/pchase.elf" >"$OUT/pchase-sampled.out" 2>"$OUT/pchase-sampled.log"
"$MT" info "$OUT/pchase-sampled.mtr" | grep -E '^(sections|samples|  burst|  span|overflow|loss|bytes per sample)'
"$MT" size --t "$(awk '$1 == "cycles" { printf "%.9f", $2 / 1e9 }' "$OUT/pchase-sampled.log")" \
  --s-h 100us --s-l 1ms --measured "$OUT/pchase-sampled.mtr" | grep -E 'file size|fixed-width|compression|formula S'

step "3. ground truth: every access of the same run, and metatrace policy for an 8 MB budget"
"$MTEMU" -q --stats --append "size=8M stride=64" --trace-all "$OUT/pchase-truth.mtr" --trace-all-ram \
  --metapage-sim '4K/16K/64K/256K/2M:8M:lru' --stats-json "$OUT/pchase-online.json" \
  "$FW/pchase.elf" >"$OUT/pchase-truth.out" 2>"$OUT/pchase-truth.log"
cmp -s "$OUT/pchase-truth.out" "$OUT/pchase-sampled.out" || { echo "demo: traced runs printed different results" >&2; exit 1; }
echo "accesses recorded: $(stat_of instructions "$OUT/pchase-truth.log") instructions, $(stat -c %s "$OUT/pchase-truth.mtr") bytes of trace"
"$MT" policy "$OUT/pchase-truth.mtr" --budget 8M --sizes 4K..2M --policies lru,clock,opt \
  --format csv >"$OUT/policy-truth.csv"
"$MT" policy "$OUT/pchase-truth.mtr" --budget 8M --sizes 4K..2M --policies lru,clock,opt \
  | tee "$OUT/policy-truth.txt" | grep -E '^(budget|8M +[1-6] )|recommendation' || true

step "4. the meta-pager inside mtemu, online, on the same access stream"
printf '%-10s %10s %18s %s\n' metapage "LRU faults" "metatrace policy" ""
for size in 4096 16384 65536 262144 2097152; do
  online=$(grep -E "\"metapage_bytes\": $size, .*\"policy\": \"lru\"" "$OUT/pchase-online.json" |
    sed -n 's/.*"faults": \([0-9]*\).*/\1/p' | head -n 1)
  offline=$(awk -F, -v s="$size" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["policy"] == "lru" && $col["metapage_bytes"] == s && $col["resident"] == int(8388608 / s) { print $col["faults"]; exit }' \
    "$OUT/policy-truth.csv")
  verdict=$([ -n "$online" ] && [ "$online" = "$offline" ] && echo equal || echo DIFFERENT)
  printf '%-10s %10s %18s %s\n' "$size" "${online:-?}" "${offline:-?}" "$verdict"
done

step "5. from the sampled trace alone: reconstruct, then compare with ground truth"
"$MT" reconstruct "$OUT/pchase-sampled.mtr" -o "$OUT/pchase-recon.mtr" --method drift >/dev/null
"$MT" compare "$OUT/pchase-truth.mtr" "$OUT/pchase-recon.mtr" --budget 8M --sizes 4K..2M 2>&1 | tail -n 12 || true

step "done: traces, tables and logs are in $OUT/"
