#!/usr/bin/env bash
# End-to-end checks of metatrace's command line.  Each check prints PASS <name> or FAIL <name>.
# Expected numbers are worked out in the comments; nothing here measures time.
set -u
MT=$(cd "${BIN:-build/bin}" && pwd)/metatrace
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; [ -s err ] && sed 's/^/    /' err | head -5; }
check() { # name, command...: passes when the command exits 0 (stdout in out, stderr in err)
    local name=$1; shift
    if "$@" >out 2>err; then pass "$name"; else fail "$name"; fi
}
fails() { # name, command...: passes on a non-zero exit with a 'metatrace CMD: ...' message
    local name=$1; shift
    if "$@" >out 2>err; then echo "FAIL $name (exit 0)"
    elif grep -q '^metatrace' err; then pass "$name"
    else echo "FAIL $name (no error message)"; fi
}
salvages() { # name, pattern, command...: a damaged input still gives its output, says why on
    # stderr (pattern) and exits 1
    local name=$1 pat=$2 rc; shift 2
    "$@" >out 2>err; rc=$?
    if [ $rc -ne 1 ]; then echo "FAIL $name (exit $rc)"
    elif ! [ -s out ]; then echo "FAIL $name (no output)"
    elif ! grep -qE -- "$pat" err; then echo "FAIL $name: no /$pat/ in stderr"; sed 's/^/    /' err | head -3
    else pass "$name"; fi
}
has() { # name, file, pattern (grep -E)
    if grep -qE -- "$3" "$2"; then pass "$1"; else echo "FAIL $1: no /$3/ in $2"; head -5 "$2" | sed 's/^/    /'; fi
}

# --- every subcommand has --help and rejects nonsense ---
for c in info decode size reconstruct policy rowbuf import export compare plot gen; do
    check "help_$c" "$MT" "$c" --help
    has "help_text_$c" out "usage: metatrace $c"
done
fails unknown_command "$MT" frobnicate
for c in info decode policy rowbuf; do fails "missing_file_$c" "$MT" "$c" /nonexistent/t.mtr; done
has missing_file_names_input err "/nonexistent/t.mtr"

# --- size: S = 1e9*30/11*(6/24 + 4*10/2048) = 735085227 B = 701.0 MiB; exact (3 s of bursts,
#     27 s of spans) = 802734375 B = 765.5 MiB, the seed's "~766 MiB" ---
check size_defaults "$MT" size
has size_formula_value out ' 735085227 B .* 735.1 MB .* 701.0 MiB'
has size_exact_value out ' 802734375 B .* 765.5 MiB'
check size_whole_periods "$MT" size --t 33
has size_33s_equal out 'S .* 808593750 B'
fails size_bad_number "$MT" size --r-h abc

# --- gen: deterministic, through lib's trace unit into .mtr ---
G="--accesses 300000 --len-h 100000 --len-l 400000"
check gen_mtr "$MT" gen -o s.mtr --truth t.mtr --full-rate f.mtr $G
check gen_again "$MT" gen -o s2.mtr $G
if cmp -s s.mtr s2.mtr; then pass gen_deterministic; else fail gen_deterministic; fi
check gen_ideal_csv "$MT" gen -o s.csv --model ideal $G
"$MT" decode s.mtr --samples-only >a.txt 2>err; "$MT" decode s.csv --samples-only >b.txt 2>>err
if cmp -s a.txt b.txt; then pass trace_unit_equals_functional_sampler; else fail trace_unit_equals_functional_sampler; fi
check gen_ideal_mtr "$MT" gen -o si.mtr --model ideal $G
if [ ! -s err ] || ! grep -q 'moved' err; then pass ideal_mtr_nothing_moved; else fail ideal_mtr_nothing_moved; fi
"$MT" decode si.mtr --samples-only >d.txt 2>err
if cmp -s a.txt d.txt; then pass ideal_mtr_equals_unit; else fail ideal_mtr_equals_unit; fi
fails gen_bad_pattern "$MT" gen -o x.mtr --pattern zigzag
fails gen_no_output "$MT" gen

# --- info / decode ---
check info_mtr "$MT" info s.mtr
has info_container out 'container: .mtr'
has info_sections out 'sections: [0-9]+ bursts, [0-9]+ spans'
has info_formats out 'span  32'
check decode_range "$MT" decode s.mtr --from 2000 --to 2100 --samples-only
# burst samples every 24 cycles from 1000: 2008, 2032, 2056, 2080 (if each interval had an access)
n=$(wc -l <out); if [ "$n" -ge 3 ] && [ "$n" -le 5 ]; then pass decode_range_count; else echo "FAIL decode_range_count ($n)"; fi
check decode_span_only "$MT" decode s.mtr --section span --samples-only
if ! grep -q ' burst ' out && grep -q ' span ' out; then pass decode_section_filter; else fail decode_section_filter; fi
check decode_csv "$MT" decode s.mtr --format csv
has decode_csv_header out '^cycle,kind,section,format,rw,address,value$'
cp out dec.csv
"$MT" decode dec.csv --samples-only >c.txt 2>err
if cmp -s a.txt c.txt; then pass decoded_csv_reads_back; else fail decoded_csv_reads_back; fi

# --- policy: CSV columns, one-pass engine = one simulation per configuration ---
check policy_table "$MT" policy t.mtr --sizes 4K,64K,2M --budgets 1M,8M
has policy_recommendation out '^recommendation for a 8M budget: metapages of'
check policy_csv "$MT" policy t.mtr --sizes 4K..64K --budgets 2M,8M --format csv
has policy_csv_columns out '^policy,metapage_bytes,resident,budget_bytes,accesses,faults,fault_rate,writebacks,bytes_in,bytes_out'
sort out >p1
"$MT" policy t.mtr --sizes 4K..64K --budgets 2M,8M --format csv --baseline 2>err | sort >p2
if cmp -s p1 p2; then pass policy_equals_baseline; else fail policy_equals_baseline; fi
check policy_json "$MT" policy t.mtr --sizes 4K,8K --format json
has policy_json_rec out '"recommendation": \{"policy"'
fails policy_bad_size "$MT" policy t.mtr --sizes 6K
fails policy_bad_policy "$MT" policy t.mtr --policies lru,mru

# --- rowbuf: a sequential sweep of 8-byte elements over 8 KiB rows hits 1 - 8/8192 ---
check gen_seq "$MT" gen -o seq.csv --every-access --pattern seq --elem 8 --size 1M --accesses 131072 --gap 1
check rowbuf_seq "$MT" rowbuf seq.csv --format csv
# 131072 accesses over 128 rows: 128 misses/conflicts, 130944 hits
has rowbuf_seq_hits out '^all,131072,130944,8,120,'
check rowbuf_xor "$MT" rowbuf seq.csv --mapping xor --banks 4
fails rowbuf_bad_mapping "$MT" rowbuf seq.csv --mapping diagonal

# --- import / export ---
printf 'cycle,address,rw\n10,0x80001000,R\n20,4096,W\n20,0x2000,R\n' >in.csv
check import_csv "$MT" import --from csv in.csv -o in.mtr
check export_csv "$MT" export in.mtr --to csv
# the second access of cycle 20 moves to 21 (one access per cycle at r = 1)
printf 'cycle,address,rw\n10,0x80001000,R\n20,0x1000,W\n21,0x2000,R\n' >want.csv
if cmp -s out want.csv; then pass import_export_csv_round_trip; else fail import_export_csv_round_trip; diff out want.csv | head; fi
printf 'cycle,address,rw\n1,0x10,Q\n' >bad.csv
fails import_bad_rw "$MT" import --from csv bad.csv -o bad.mtr
has import_bad_rw_line err 'bad.csv:2: rw must be R or W'
[ ! -e bad.mtr ] && pass import_no_partial_output || fail import_no_partial_output
check export_dramsim2 "$MT" export in.mtr --to dramsim2
has dramsim2_line out '^0x80001000 P_MEM_RD 10$'
check export_ramulator "$MT" export in.mtr --to ramulator
has ramulator_line out '^0x00001000 W$'
# HMTT: RAM at 2 GiB is in HMTT's hole; in.mtr also has 0x1000, so no one --offset expresses both
# (said, and none suggested); t.mtr's RAM alone moves down with --offset; 64-byte granularity
fails export_hmtt_hole "$MT" export in.mtr --to hmtt -o x.hmtt
has export_hmtt_hole_msg err 'no --offset can express every address \(they span 0x1000..0x80001000'
check export_hmtt "$MT" export t.mtr --to hmtt -o t.hmtt --offset 0x80000000
check import_hmtt "$MT" import --from hmtt t.hmtt -o h.csv
# 64-byte elements: every address is a whole line, so HMTT loses nothing but absolute time
check gen_lines "$MT" gen -o l.mtr --every-access --elem 64 --accesses 20000 --idle-every 500 --idle-cycles 1000
# (offset 0x7ff00000, not 0x80000000: a write to line 0 right after the previous record is
#  all-zero, which HMTT defines as a filler)
check export_hmtt_lines "$MT" export l.mtr --to hmtt -o l.hmtt --offset 0x7ff00000
# idle stretches of 1000 cycles need 256-cycle fillers: 3 per stretch, 39 stretches
has hmtt_fillers err 'wrote 20000 HMTT access records and 1[0-9][0-9] fillers to l.hmtt$'
check import_hmtt_lines "$MT" import --from hmtt l.hmtt -o l_back.mtr
"$MT" export l_back.mtr --to csv >l_back.csv 2>err
"$MT" export l.mtr --to csv --offset 0x7ff00000 >l_ref.csv 2>err
first=$(sed -n 2p l_ref.csv | cut -d, -f1)
awk -F, -v f="$first" 'NR==1{print;next}{printf "%d,%s,%s\n",$1-f,$2,$3}' l_ref.csv >l_rel.csv
if cmp -s l_back.csv l_rel.csv; then pass hmtt_round_trip; else fail hmtt_round_trip; diff l_back.csv l_rel.csv | head -3; fi
head -c 100 t.hmtt >cut.hmtt
: >empty.csv
fails csv_empty "$MT" decode empty.csv
has csv_empty_msg err 'empty.csv: empty'
printf 'cycle,address,rw\n' >header_only.csv
check csv_header_only "$MT" info header_only.csv
has csv_header_only_none out '^samples: 0 '
fails import_hmtt_truncated "$MT" import --from hmtt cut.hmtt -o cut.csv
has import_hmtt_truncated_msg err 'truncated'

# kernel PTE records: CSV -> 13-byte records -> CSV
printf 'magic,event,pid,vpn,ppn\n0xec,set,42,0x7fff1,0x80123\n0x22,free,42,0x7fff1,0x80123\n' >k.csv
check export_kpte "$MT" export k.csv --to hmtt-kt -o k.kt
[ "$(wc -c <k.kt)" -eq 26 ] && pass kpte_26_bytes || fail kpte_26_bytes
check import_kpte "$MT" import --from hmtt l.hmtt -o l2.mtr --kernel-trace k.kt --kernel-csv k2.csv
has kpte_summary err '2 PTE records \(1 set, 1 freed\)'
if cmp -s k.csv k2.csv; then pass kpte_round_trip; else fail kpte_round_trip; fi
printf 'magic,event,pid,vpn,ppn\n0x99,set,1,2,3\n' >kbad.csv
fails export_kpte_bad_magic "$MT" export kbad.csv --to hmtt-kt -o kbad.kt

# --- reconstruct and compare ---
for m in seed gigabyte bracket drift; do
    check "reconstruct_$m" "$MT" reconstruct s.mtr -o "r_$m.mtr" --method "$m"
done
has reconstruct_seed_below_gb err 'outside their span sample'
check compare_drift "$MT" compare f.mtr r_drift.mtr --sizes 4K,64K
has compare_summary out '^mean \|relative fault-count error\|'
has compare_aligned out 'burst +[0-9]+: same page 100.00%'
check compare_self "$MT" compare f.mtr f.mtr --sizes 4K
has compare_self_zero out 'TVD 0.0000, JSD 0.0000 bits, Jaccard 1.0000'
fails compare_one_arg "$MT" compare f.mtr

# --- a container whose writer was killed still reads up to its last complete frame ---
check gen_big "$MT" gen -o big.mtr --every-access --accesses 600000
size=$(wc -c <big.mtr)
head -c $((size * 2 / 3)) big.mtr >cut.mtr
salvages info_truncated 'cut.mtr: incomplete: the writer did not finish \(its last frame is cut short\): what it read ends at cycle [0-9]+' "$MT" info cut.mtr
has info_truncated_index out 'index: none'
n_cut=$(sed -n 's/^samples: \([0-9]*\).*/\1/p' out)
if [ -n "$n_cut" ] && [ "$n_cut" -gt 0 ] && [ "$n_cut" -lt 600000 ]; then pass truncated_partial_samples; else echo "FAIL truncated_partial_samples ($n_cut)"; fi
# every command that reads the cut trace says so and exits 1 after its output
salvages decode_truncated 'cut.mtr: incomplete' "$MT" decode cut.mtr --samples-only
if [ "$(wc -l <out)" -eq "$n_cut" ]; then pass decode_truncated_samples; else echo "FAIL decode_truncated_samples"; fi
salvages policy_truncated 'cut.mtr: incomplete' "$MT" policy cut.mtr --sizes 4K --budgets 1M
salvages export_truncated 'cut.mtr: incomplete' "$MT" export cut.mtr --to csv
# no complete frame at all (the header and a part of the first frame): nothing to read, said so
head -c 3000 big.mtr >stub.mtr
"$MT" decode stub.mtr >out 2>err; rc=$?
if [ $rc -eq 1 ] && grep -q 'stub.mtr: incomplete: .* no frame of it is complete: nothing could be read' err; then
    pass truncated_nothing_readable; else echo "FAIL truncated_nothing_readable (exit $rc)"; fi
# a damaged byte inside a frame: the frame's checksum fails, and the frame is skipped and counted
# (the decoder alone might not see the gap: a 1 MiB frame at the 4096-byte SYNC period holds 256
# SYNCs, a whole turn of their 8-bit sequence number)
cp big.mtr dmg.mtr
printf '\377' | dd of=dmg.mtr bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
salvages info_damaged 'dmg.mtr: 1 corrupt frame skipped' "$MT" info dmg.mtr
n_dmg=$(sed -n 's/^samples: \([0-9]*\).*/\1/p' out)
if [ -n "$n_dmg" ] && [ "$n_dmg" -gt 0 ] && [ "$n_dmg" -lt 600000 ]; then pass damaged_partial_samples; else echo "FAIL damaged_partial_samples ($n_dmg)"; fi

# --- an output that names the input or another output is refused before anything is written ---
cp big.mtr keep.mtr
fails reconstruct_over_input "$MT" reconstruct keep.mtr -o ./keep.mtr
has reconstruct_over_input_msg err 'keep.mtr: that is the input: it would be overwritten'
if cmp -s big.mtr keep.mtr; then pass reconstruct_over_input_intact; else fail reconstruct_over_input_intact; fi
fails export_over_input "$MT" export keep.mtr --to csv -o keep.mtr
fails gen_two_outputs_one_file "$MT" gen -o twice.mtr --truth ./twice.mtr
has gen_two_outputs_one_file_msg err 'the same file for two outputs'
printf 'cycle,address,rw\n1,0x1000,R\n' >self.csv
fails import_over_input "$MT" import --from csv self.csv -o self.csv
has import_over_input_kept self.csv '^1,0x1000,R$'
check export_dash_stdout "$MT" export keep.mtr --to csv -o - --to-cycle 2000
has export_dash_stdout_rows out '^cycle,address,rw$'
if [ ! -e ./- ]; then pass export_dash_no_file; else echo "FAIL export_dash_no_file"; fi

# --- a full disk: the result did not reach its file, which says so and exits 1; a device named as
#     the output is never removed ---
if [ -c /dev/full ]; then
    "$MT" decode big.mtr >/dev/full 2>err; rc=$?
    if [ $rc -eq 1 ] && grep -q 'decode: standard output: write error: No space left on device' err; then
        pass full_stdout; else echo "FAIL full_stdout (exit $rc)"; fi
    fails full_reconstruct "$MT" reconstruct big.mtr -o /dev/full
    fails full_export "$MT" export big.mtr --to csv -o /dev/full
    fails full_gen "$MT" gen -o /dev/full --accesses 1000
    if [ -c /dev/full ]; then pass full_device_kept; else echo "FAIL full_device_kept"; fi
fi

# --- region of interest: --from/--to seek through the index (same answer as filtering a full
#     decode), a killed writer's file is scanned and says so; --between-markers on a hand-built
#     trace whose answers are worked out below ---
"$MT" decode big.mtr --samples-only >full.txt 2>err
awk '$1 >= 1500000 && $1 <= 1600000' full.txt >want.txt
check roi_decode_seek "$MT" decode big.mtr --samples-only --from 1500000 --to 1600000
if [ -s want.txt ] && cmp -s out want.txt; then pass roi_seek_equals_filtered_scan; else fail roi_seek_equals_filtered_scan; fi
"$MT" decode cut.mtr --samples-only >cutfull.txt 2>err
awk '$1 >= 200000 && $1 <= 300000' cutfull.txt >want.txt
check roi_decode_no_index "$MT" decode cut.mtr --samples-only --from 200000 --to 300000
if [ -s want.txt ] && cmp -s out want.txt; then pass roi_scan_equals_filtered; else fail roi_scan_equals_filtered; fi
has roi_no_index_said err 'no usable index .* scanning'
check roi_info_range "$MT" info big.mtr --from 1500000 --to 1600000
has roi_info_count out "^samples: $(awk '$1 >= 1500000 && $1 <= 1600000' full.txt | wc -l) "
has roi_info_region out '^region: cycles 1500000\.\.1600000'
fails roi_bad_from "$MT" policy big.mtr --from abc
fails roi_from_after_to "$MT" decode big.mtr --from 9 --to 8
fails roi_bad_markers "$MT" rowbuf big.mtr --between-markers 7
# Markers 0x01000101 (16777473, begin) and 0x01000102 (16777474, end): an end before the begin
# is ignored; the region is cycles 6..8: pages 0x80003 (W), 0x80003, 0x80004.  With one 4 KiB
# page resident LRU faults twice there (over the whole trace's 7 accesses: 6 times).
printf '%s\n' 'cycle,kind,section,format,rw,address,value' \
    '1,sample,burst,full,R,0x80000000,0x80000000' '2,sample,burst,full,R,0x80001000,0x80001000' \
    '3,marker,burst,,,,16777474' '4,sample,burst,full,R,0x80002000,0x80002000' \
    '5,marker,burst,,,,16777473' '6,sample,burst,full,W,0x80003000,0x80003000' \
    '7,sample,burst,full,R,0x80003008,0x80003008' '8,sample,burst,full,R,0x80004000,0x80004000' \
    '9,marker,burst,,,,16777474' '10,sample,burst,full,R,0x80005000,0x80005000' >m.csv
M="--between-markers 0x01000101,0x01000102"
check roi_markers_decode "$MT" decode m.csv $M --format csv
if [ "$(tail -n +2 out | cut -d, -f1 | tr '\n' ' ')" = "6 7 8 " ]; then pass roi_markers_records; else fail roi_markers_records; fi
check roi_markers_policy "$MT" policy m.csv $M --sizes 4K --budget 4K --policies lru --format csv
has roi_markers_policy_faults out '^lru,4096,1,4096,3,2,'
check roi_whole_policy "$MT" policy m.csv --sizes 4K --budget 4K --policies lru --format csv
has roi_whole_policy_faults out '^lru,4096,1,4096,7,6,'
# --addr-range BASE+SIZE keeps the samples in [BASE, BASE + SIZE): 0x80003000+4K is cycles 6 and 7
# (one page: 2 accesses, 1 fault); the end is excluded (0x80003000+0x1000 does not reach 0x80004000)
check roi_addr_policy "$MT" policy m.csv --addr-range 0x80003000+4K --sizes 4K --budget 4K --policies lru --format csv
has roi_addr_policy_faults out '^lru,4096,1,4096,2,1,'
check roi_addr_decode "$MT" decode m.csv --addr-range 0x80003000+0x1001 --samples-only
if [ "$(awk '{ print $1 }' out | tr '\n' ' ')" = "6 7 8 " ]; then pass roi_addr_end_excluded; else fail roi_addr_end_excluded; fi
check roi_addr_info "$MT" info m.csv --addr-range 0x80000000+8K
has roi_addr_info_region out '^region: addresses 0x80000000\.\.0x80002000 \(end excluded\)'
fails roi_addr_no_size "$MT" policy m.csv --addr-range 0x80000000
has roi_addr_no_size_msg err "metatrace policy: --addr-range: '0x80000000' is not BASE\+SIZE"
fails roi_addr_zero "$MT" decode m.csv --addr-range 0x1000+0
fails roi_addr_wraps "$MT" decode m.csv --addr-range 0xffffffffffffff00+4K
check roi_addr_help "$MT" policy --help
has roi_addr_help_line out '^  --addr-range BASE\+SIZE'
check roi_addr_to_top "$MT" decode m.csv --addr-range 0xfffffffffffff000+4K --samples-only
# --stats: the runs per size on stderr (m.csv's 7 accesses are 6 runs at 4K: 0x80003000 W, 0x80003008 R
# is one); the table unchanged
"$MT" policy m.csv --sizes 4K --budget 4K --policies lru,opt --format csv --stats >out 2>err
if grep -q '^metatrace policy: stats: 4K: 6 runs of 7 accesses (85.7%); LRU/FIFO/CLOCK [0-9.]* s CPU.*; OPT [0-9.]* s CPU' err \
    && grep -q '^metatrace policy: threads: the pass over the trace [0-9.]* s CPU on the reading thread .*, [0-9.]* s wall; OPT.s passes [0-9.]* s wall$' err \
    && grep -q '^lru,4096,1,4096,7,6,' out; then pass policy_stats; else fail policy_stats; fi
check roi_export "$MT" export m.csv --to csv --from 6 --to-cycle 7
if [ "$(tail -n +2 out | tr '\n' ' ')" = "6,0x80003000,W 7,0x80003008,R " ]; then pass roi_export_rows; else fail roi_export_rows; fi
check roi_rowbuf "$MT" rowbuf m.csv $M
has roi_rowbuf_count out ': 3 accesses'
check roi_compare "$MT" compare m.csv m.csv $M --sizes 4K
check roi_reconstruct "$MT" reconstruct s.mtr -o r_roi.mtr --from 100000 --to 300000
check roi_reconstruct_out "$MT" info r_roi.mtr
first=$(sed -n 's/^cycles: \([0-9]*\) .*/\1/p' out)
if [ -n "$first" ] && [ "$first" -ge 99000 ]; then pass roi_reconstruct_range; else echo "FAIL roi_reconstruct_range ($first)"; fi

# --- garbage input is an error, never a crash ---
head -c 5000 /dev/urandom >junk.mtr
"$MT" info junk.mtr >out 2>err; rc=$?
if [ $rc -le 2 ]; then pass junk_no_crash; else echo "FAIL junk_no_crash (exit $rc)"; fi

# --- plot (needs gnuplot) ---
if command -v gnuplot >/dev/null; then
    check plot_stride "$MT" plot --kind stride -o stride.svg --data
    has plot_stride_model out '^1024 0.500000 '
    check plot_mrc "$MT" plot --kind mrc t.mtr -o mrc.png --sizes 4K,64K --budgets 256K..4M
    [ -s mrc.png ] && pass plot_png_written || fail plot_png_written
    fails plot_bad_ext "$MT" plot --kind stride -o x.gif
fi
