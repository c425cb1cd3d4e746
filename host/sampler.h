/* A functional model of the trace unit's sampling, with no FIFO and no packets: time alternates
 * between bursts of len_h cycles (one sample per r_h cycles, format fmt_h) and spans of len_l
 * cycles (r_l, fmt_l), starting with a burst at `start`.  The sample of an interval
 * [sp, sp + r) is its first access, reported at the sample point sp (DESIGN.md "Sampling";
 * docs/trace-unit.md 4.B/C); an interval with no access gives no sample.  It is what the trace
 * unit reports when its FIFO never fills, so it gives `gen` ground-truth-friendly sampled traces
 * and an independent check of lib's cycle-exact model. */
#ifndef HOST_SAMPLER_H
#define HOST_SAMPLER_H

#include <stdint.h>

#include "host/sample.h"
#include "mt_event.h"

typedef struct {
    uint64_t r_h, r_l, len_h, len_l;
    ht_format fmt_h, fmt_l;
    uint64_t start;
} sampler_config;

typedef struct {
    sampler_config c;
    int span;              /* current section type */
    uint64_t sec_start, sec_end, rate;
    uint64_t captured_sp;  /* sample point of the last captured interval + 1 (0 = none) */
    int started;
} sampler;

void sampler_defaults(sampler_config *c); /* 24 / 2048 cycles, 1 s / 10 s, 48 / 32-bit */
void sampler_init(sampler *s, const sampler_config *c);
/* Feeds one access (non-decreasing cycles).  Writes up to 2 records (a SECTION and/or a sample)
 * to out and returns how many. */
int sampler_access(sampler *s, const mt_access *a, ht_record out[3]);

#endif
