#!/usr/bin/env bash
# make bench step bench-qemu-plugin: every-access tracing in mtemu beside QEMU with a TCG plugin
# writing the same kind of records, on the same bare-metal binary, in the same run:
#   QEMU untraced | QEMU + tests/bench/qemu_trace_plugin.c | mtemu untraced | mtemu --trace-all
#   | mtemu --trace-all --trace-all-format runs (docs/trace-format.md section 4.2: the same records)
# For each: CPU seconds (user+sys of the process and its threads, median of 3 runs), records and
# bytes written; then the ratios: mtemu --trace-all against QEMU + plugin, and each traced run
# against its own untraced run (speed = untraced / traced time, as docs/trace-unit.md states it).
#
#   BIN=build/bin QPLUGIN=build/qemu-plugin/qemu_trace_plugin.so tests/bench/bench_qemu_plugin.sh ELF
#
# Records: the plugin writes 8 bytes per instruction fetch and per data access (virtual address
# + kind); mtemu --trace-all records every fetch, load and store (its default kinds) as samples of
# its compressed .mtr format. The plugin writes to PLUGIN_OUT (default /dev/null, as in issue #24's
# own measurement: 8 bytes x about 1.3 G records would be about 10 GB per run; its byte count is
# what it wrote); mtemu writes its real .mtr file into a temporary directory (TMPDIR). With
# PLUGIN_FILE_ROW=1 a further row has the plugin write its real file there too (about 10 GB per
# run on bench_cpu, most of its cost then system time): off by default, it loads a shared disk.
# Without QPLUGIN (no qemu-plugin.h: no network to Debian's archive) or without QEMU the QEMU rows
# say why and are skipped; the mtemu rows still run. No assertion on any time.
set -u
BIN=${BIN:-build/bin}
EMU=$BIN/mtemu
QEMU=${QEMU:-qemu-system-riscv64}
QPLUGIN=${QPLUGIN:-build/qemu-plugin/qemu_trace_plugin.so}
PLUGIN_OUT=${PLUGIN_OUT:-/dev/null}
RUNS=${RUNS:-3}
elf=${1:?usage: bench_qemu_plugin.sh ELF}
[ -f "$elf" ] || { echo "bench-qemu-plugin: $elf not found" >&2; exit 1; }
[ -x "$EMU" ] || { echo "bench-qemu-plugin: $EMU not found (make)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-qemu-plugin.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# cpu CMD...: CPU seconds (user+sys) of one run; the command's stderr stays in $tmp/err.
cpu() {
  ( TIMEFORMAT='%U %S'; time "$@" >/dev/null 2>"$tmp/err" </dev/null ) 2>"$tmp/time"
  awk '{ printf "%.3f", $1 + $2 }' "$tmp/time"
}
# median CMD...: median CPU seconds of RUNS runs (the last run's stderr stays in $tmp/err); the
# least and most go to $tmp/spread, which row() prints, so the noise is in sight.
median() {
  for _ in $(seq "$RUNS"); do cpu "$@"; echo; done | sort -g |
    awk -v f="$tmp/spread" '{ v[NR] = $1 } END { printf "%s-%s\n", v[1], v[NR] > f; print v[int((NR + 1) / 2)] }'
}
ratio() { awk -v a="$1" -v b="$2" -v u="${3:-}" 'BEGIN { if (a > 0 && b > 0) printf "%.3f%s", a / b, u; else print "-" }'; }
row() { printf '%-26s %7s %-17s %14s %14s  %s\n' "$1" "$2" "$([ "$2" = "cpu s" ] && echo "(least-most)" || echo "($(cat "$tmp/spread"))")" "${@:3}"; }

qemu_cmd=("$QEMU" -M virt -m 256M -bios none -kernel "$elf" -nographic -monitor none)
echo "bench-qemu-plugin: $(basename "$elf"), CPU seconds (user+sys), median of $RUNS; load $(cut -d' ' -f1-3 /proc/loadavg)"
row "" "cpu s" records bytes note

q_cpu=0 qp_cpu=0
if ! command -v "$QEMU" >/dev/null; then
  echo "QEMU rows skipped: $QEMU not installed (make deps)"
else
  q_cpu=$(median "${qemu_cmd[@]}")
  row "QEMU untraced" "$q_cpu" - - "$("$QEMU" --version | head -1 | sed 's/QEMU emulator version //')"
  if [ ! -f "$QPLUGIN" ]; then
    echo "QEMU + plugin row skipped: $QPLUGIN not built (qemu-plugin.h could not be fetched: see above)"
  else
    qp_cpu=$(median "${qemu_cmd[@]}" -plugin "$QPLUGIN,out=$PLUGIN_OUT")
    read -r qf ql qs qr qb < <(sed -n 's/^.*qemu_trace_plugin: fetches \([0-9]*\) loads \([0-9]*\) stores \([0-9]*\) records \([0-9]*\) bytes \([0-9]*\)$/\1 \2 \3 \4 \5/p' "$tmp/err")
    row "QEMU + plugin" "$qp_cpu" "${qr:-?}" "${qb:-?}" "fetch ${qf:-?} load ${ql:-?} store ${qs:-?}; to $PLUGIN_OUT"
    if [ "${PLUGIN_FILE_ROW:-0}" = 1 ]; then
      qf_cpu=$(median "${qemu_cmd[@]}" -plugin "$QPLUGIN,out=$tmp/plugin.bin")
      qf_bytes=$(stat -c %s "$tmp/plugin.bin"); rm -f "$tmp/plugin.bin"
      row "QEMU + plugin, to a file" "$qf_cpu" - "$qf_bytes" "in $(dirname "$tmp")"
    fi
  fi
fi

m_cpu=$(median "$EMU" -q --stats "$elf")
insns=$(awk '$1 == "instructions" { print $2 }' "$tmp/err")
row "mtemu untraced" "$m_cpu" - - "$insns instructions"
ma_cpu=$(median "$EMU" -q --stats --trace-all "$tmp/all.mtr" "$elf")
cp "$tmp/err" "$tmp/all.stats"
ma_bytes=$(stat -c %s "$tmp/all.mtr")
ma_recs=$(awk '$1 == "trace.all" { print $2 }' "$tmp/all.stats")
row "mtemu --trace-all" "$ma_cpu" "${ma_recs:-?}" "$ma_bytes" "$(awk -v b="$ma_bytes" -v r="${ma_recs:-0}" 'BEGIN { if (r > 0) printf "%.3f bytes/record", b / r }')"

mr_cpu=$(median "$EMU" -q --stats --trace-all "$tmp/runs.mtr" --trace-all-format runs "$elf")
mr_bytes=$(stat -c %s "$tmp/runs.mtr")
mr_recs=$(awk '$1 == "trace.all" { print $2 }' "$tmp/err")
row "mtemu --trace-all, runs" "$mr_cpu" "${mr_recs:-?}" "$mr_bytes" "$(awk -v b="$mr_bytes" -v r="${mr_recs:-0}" 'BEGIN { if (r > 0) printf "%.3f bytes/record", b / r }'); --trace-all-format runs"

echo "ratios (CPU time):"
echo "  mtemu --trace-all / QEMU + plugin      $(ratio "$ma_cpu" "$qp_cpu")  (below 1: mtemu faster)"
echo "  mtemu --trace-all runs / QEMU + plugin $(ratio "$mr_cpu" "$qp_cpu")"
[ -n "${qf_cpu:-}" ] && echo "  mtemu --trace-all / QEMU + plugin, to a file $(ratio "$ma_cpu" "$qf_cpu")"
echo "  QEMU speed traced (untraced / traced)  $(ratio "$q_cpu" "$qp_cpu" x)"
echo "  mtemu speed traced (untraced / traced) $(ratio "$m_cpu" "$ma_cpu" x)  (issue #24's goal: >= 0.3x)"
echo "  ... with --trace-all-format runs       $(ratio "$m_cpu" "$mr_cpu" x)"
echo "  mtemu untraced / QEMU untraced         $(ratio "$m_cpu" "$q_cpu")"
