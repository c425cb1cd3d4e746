/* Streaming approximate median: the P-squared algorithm (Jain and Chlamtac, CACM 1985).  Five
 * markers, O(1) memory and time per value, no stored samples: what seed section 3.3 asks for
 * ("we don't need to hold the entire burst in memory").  Exact for up to five values (it sorts
 * them); after that an estimate whose error shrinks as the distribution is smoother.
 * Values are 44-bit page numbers here, exactly representable in a double. */
#ifndef HOST_MEDIAN_H
#define HOST_MEDIAN_H

#include <stdint.h>

typedef struct {
    double q[5];   /* marker heights */
    double n[5];   /* actual marker positions (1-based) */
    double np[5];  /* desired positions */
    double dn[5];  /* desired position increments */
    uint64_t count;
} p2_median;

void p2_init(p2_median *m);
void p2_add(p2_median *m, double x);
/* The current estimate (0 when empty).  For count <= 5 the exact lower median. */
double p2_value(const p2_median *m);

#endif
