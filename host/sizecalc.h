/* The seed's trace-size formula (section 3.1) and the exact section-by-section size.
 *
 *   S = s_ref * t / (s_h + s_l) * (b_h * s_h / r_h + b_l * s_l / r_l)
 *
 * S treats t as a whole number of burst+span periods (it averages).  The exact size of a
 * recording that starts with a burst and stops after t seconds counts each section that fits
 * and the part of the last one: with the seed's defaults (t = 30 s, 1 s bursts, 10 s spans) that
 * is 3 bursts and 27 s of span, 802.7 MB = 765.5 MiB -- the seed's "~766 MiB" -- while S itself
 * is 735.1 MB = 701.0 MiB.  docs/host.md has the arithmetic. */
#ifndef HOST_SIZECALC_H
#define HOST_SIZECALC_H

typedef struct {
    double t;      /* seconds recorded */
    double s_ref;  /* reference clock, Hz */
    double s_h, s_l; /* burst and span lengths, seconds */
    double r_h, r_l; /* cycles per sample */
    double b_h, b_l; /* bytes per sample */
} size_params;

void size_defaults(size_params *p); /* the seed's values */
double size_formula(const size_params *p);    /* S in bytes */
double size_exact(const size_params *p);      /* bytes, burst first, whole sections + remainder */
/* Seconds of burst and of span in the exact recording. */
void size_exact_split(const size_params *p, double *burst_s, double *span_s);

#endif
