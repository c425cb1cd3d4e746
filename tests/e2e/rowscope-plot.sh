#!/bin/sh
# Plot of the stride sweep in rowscope.csv (RowScope's figure): measured row hit and conflict
# rates against stride, with the closed form 1 - stride*4/8192.
# usage: rowscope-plot.sh rowscope.csv out.png
set -eu
csv=$1 png=$2
command -v gnuplot >/dev/null || { echo "rowscope-plot: gnuplot not installed (gnuplot-nox); no plot" >&2; exit 0; }
data=$(mktemp)
trap 'rm -f "$data"' EXIT
awk -F, '$1 == "stride" { print $2, $4, $6 }' "$csv" >"$data"
gnuplot <<GP
set terminal pngcairo size 800,500 noenhanced
set output "$png"
set title "Row-buffer hit rate vs stride (mtemu, every access, 8 KB rows, 8 banks)"
set xlabel "stride (elements)"
set ylabel "rate"
set logscale x 2
set yrange [0:1.05]
set key bottom left
plot "$data" using 1:2 with linespoints title "row hit rate (measured)", \
     "$data" using 1:3 with linespoints title "row conflict rate (measured)", \
     1 - x*4/8192.0 with lines dashtype 2 title "1 - stride*4/8192"
GP
