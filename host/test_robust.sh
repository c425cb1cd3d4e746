#!/usr/bin/env bash
# No wrong answer with exit 0 (issue 27): damaged container metadata, cut files and failed
# outputs. Each check prints PASS <name> or FAIL <name>.
set -u
MT=$(cd "${BIN:-build/bin}" && pwd)/metatrace
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1${2:+: $2}"; [ -s err ] && sed 's/^/    /' err | head -5; }
has() { if grep -qE -- "$3" "$2"; then pass "$1"; else fail "$1" "no /$3/ in $2"; fi; }
# idx_off FILE: the index frame's offset, from the version 2 footer (the last 28 bytes)
idx_off() { od -An -tu8 -j $(($(stat -c %s "$1") - 20)) -N8 "$1" | tr -d ' '; }
flip() { # FILE OFFSET OUT: OUT is FILE with the byte at OFFSET inverted
    cp "$1" "$3"
    local b; b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((b ^ 255)))" | dd of="$3" bs=1 seek="$2" conv=notrunc status=none
}

"$MT" gen -o e.mtr --every-access --accesses 1000000 --seed 3 >/dev/null 2>&1 || { echo "FAIL gen"; exit 1; }
"$MT" info e.mtr >out 2>err
has info_header_checked out '^header: checked'
has info_index_checked out '^index: [0-9]+ frames.*checked \(CRC-32C'

# A flipped index byte (the reproduction: 66 bytes past the index offset) no longer
# empties a range query: the index is set aside, said so, and the frames are scanned.
"$MT" decode e.mtr --from 400000 --to 400100 >want 2>/dev/null
io=$(idx_off e.mtr)
flip e.mtr $((io + 66)) f.mtr
if "$MT" decode f.mtr --from 400000 --to 400100 >out 2>err && cmp -s out want && [ -s want ]; then
    has index_flip_said err 'index damaged .*set aside'
    pass index_flip_same_answer
else fail index_flip_same_answer "exit or output differs ($(wc -l <out) lines, want $(wc -l <want))"; fi
"$MT" info f.mtr >out 2>err
has index_flip_info out '^index: damaged \(index checksum'

# A flipped header byte (the reference clock) is refused, not shown as another value.
flip e.mtr 17 h.mtr
if "$MT" info h.mtr >out 2>err; then fail header_flip_refused "exit 0"
else has header_flip_refused err 'damaged .mtr header \(checksum'; fi

# Cut inside the index: every frame is whole, so the answer is whole and nothing is 'lost'.
"$MT" decode e.mtr >all 2>/dev/null
head -c $((io + 30)) e.mtr >c.mtr
if "$MT" decode c.mtr >out 2>err && cmp -s out all; then
    if grep -q 'lost' err && ! grep -q 'nothing is lost' err; then fail cut_in_index_nothing_lost "says lost"
    else pass cut_in_index_nothing_lost; fi
else fail cut_in_index_nothing_lost "exit $? or output differs"; fi

# --- outputs appear whole or not at all (written as OUT.partial, renamed on success) ---
# nothing_left NAME FILE...: passes when none of the files, nor FILE.partial, exists
nothing_left() {
    local name=$1 f; shift
    for f in "$@"; do
        if [ -e "$f" ] || [ -e "$f.partial" ]; then fail "$name" "$f left behind"; return; fi
    done
    pass "$name"
}
# a command whose input is damaged (cut in its last frame) exits 1 and writes no file output
size=$(stat -c %s e.mtr)
head -c $((size / 2)) e.mtr >cut.mtr
"$MT" reconstruct cut.mtr -o r.mtr >/dev/null 2>err; rc=$?
[ $rc -eq 1 ] && grep -q 'not written' err && nothing_left reconstruct_cut_no_output r.mtr || fail reconstruct_cut_no_output "exit $rc"
"$MT" export cut.mtr --to csv -o x.csv >/dev/null 2>err; rc=$?
[ $rc -eq 1 ] && nothing_left export_cut_no_output x.csv || fail export_cut_no_output "exit $rc"
"$MT" info r.mtr >/dev/null 2>&1 && fail reconstruct_cut_not_readable "r.mtr reads" || pass reconstruct_cut_not_readable

# a full disk (a file-size limit: writes fail with EFBIG; SIGXFSZ ignored so the tool sees it)
limited() { (trap '' XFSZ; ulimit -f 16; "$@"); } # 16 KiB (the plots are 21 and 39 KB)
limited "$MT" export e.mtr --to csv -o big.csv >/dev/null 2>err; rc=$?
[ $rc -ne 0 ] && grep -q 'big.csv' err && nothing_left export_full_disk big.csv || fail export_full_disk "exit $rc"
limited "$MT" gen -o g.mtr --every-access --accesses 1000000 >/dev/null 2>err; rc=$?
[ $rc -ne 0 ] && nothing_left gen_full_disk g.mtr || fail gen_full_disk "exit $rc"
# every message line names the command (the writer used to print 'g.mtr: write failed' bare)
if grep -q '^metatrace gen: g.mtr: write failed: File too large' err && ! grep -qv '^metatrace gen: ' err; then
    pass gen_full_disk_message
else fail gen_full_disk_message; fi
"$MT" export e.mtr --to csv -o /dev/full >/dev/null 2>err; rc=$?
[ $rc -ne 0 ] && [ -c /dev/full ] && pass export_dev_full || fail export_dev_full "exit $rc"
# an earlier file at OUT stays as it was when the command fails
echo keep >k.csv
limited "$MT" export e.mtr --to csv -o k.csv >/dev/null 2>&1
[ "$(cat k.csv)" = keep ] && [ ! -e k.csv.partial ] && pass failed_output_keeps_old || fail failed_output_keeps_old

if command -v gnuplot >/dev/null; then
    "$MT" plot --kind stride -o p.png >/dev/null 2>err && [ -s p.png ] && nothing_left plot_ok_no_partial p.png.partial ||
        fail plot_ok_no_partial
    tail -c 12 p.png | od -An -c | grep -q 'I   E   N   D' && pass plot_png_whole || fail plot_png_whole
    # gnuplot exits 0 on a full disk with the PNG cut short: the check finds no IEND
    limited "$MT" plot --kind stride -o q.png >/dev/null 2>err; rc=$?
    [ $rc -ne 0 ] && grep -q 'incomplete' err && nothing_left plot_full_disk q.png || fail plot_full_disk "exit $rc"
    limited "$MT" plot --kind stride -o q.svg >/dev/null 2>err; rc=$?
    [ $rc -ne 0 ] && nothing_left plot_full_disk_svg q.svg || fail plot_full_disk_svg "exit $rc"
fi

# --- export --to hmtt: an --offset is suggested only when it works for every address ---
printf 'cycle,address,rw\n10,0x80001000,R\n20,0x80402040,W\n30,0x80000100,R\n' >hi.csv
printf 'cycle,address,rw\n10,0x1000,R\n20,0xc0000000,W\n' >span.csv
"$MT" import --from csv hi.csv -o hi.mtr 2>/dev/null && "$MT" import --from csv span.csv -o span.mtr 2>/dev/null
"$MT" export hi.mtr --to hmtt -o hi.hmtt >/dev/null 2>err
off=$(sed -n 's/.*--offset \(0x[0-9a-f]*\) maps every address.*/\1/p' err)
if [ -n "$off" ] && "$MT" export hi.mtr --to hmtt -o hi.hmtt --offset "$off" >/dev/null 2>&1 && [ -s hi.hmtt ]; then
    pass hmtt_offset_suggestion_works
else fail hmtt_offset_suggestion_works "suggested '$off'"; fi
if "$MT" export span.mtr --to hmtt -o s.hmtt >/dev/null 2>err; then fail hmtt_no_offset_no_suggestion "exit 0"
elif grep -q 'no --offset can express every address' err && ! grep -q -- '--offset 0x' err; then pass hmtt_no_offset_no_suggestion
else fail hmtt_no_offset_no_suggestion; fi

# --- policy: a budget below a metapage is said, not silently dropped ---
"$MT" policy e.mtr --budget 1M --sizes 4K,64K,2M >out 2>err; rc=$?
if [ $rc -eq 0 ] && grep -q 'budget of 1M holds no 2M metapage' err && ! grep -qE '^1M +[0-9]+ +[a-z]+ +2M' out; then
    pass policy_budget_below_metapage_said
else fail policy_budget_below_metapage_said "exit $rc"; fi
