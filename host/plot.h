/* Plots through gnuplot: the data and a script go to a temporary directory, gnuplot writes the
 * PNG (pngcairo) or SVG named by the output's extension.  The numbers are printed too (CSV on
 * stdout with --data), so a plot never holds anything the text does not. */
#ifndef HOST_PLOT_H
#define HOST_PLOT_H

#include <stddef.h>

/* Runs gnuplot on `script` with `data` available as 'data.dat' (whitespace columns) in the same
 * directory; `out` ends in .png or .svg.  0 ok, -1 with a message in err. */
int plot_run(const char *script, const char *data, const char *out, char *err, size_t errlen);
/* "pngcairo size 900,600" or "svg size 900,600" for out's extension; NULL if neither. */
const char *plot_terminal(const char *out);

#endif
