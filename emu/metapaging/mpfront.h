/* The emulator thread's share of the LRU stack pass (mpstack.h): its reports turned into units,
 * with the reports that only repeat or alternate the two most recent units folded into counts.
 *
 * When the stack pass counts every simulated configuration (mpsim_stack_units), the analysis
 * thread (mpsimthread.h) would spend most of its reports on two cases that need nothing of its
 * state but the order of the two front units, which the stream alone determines:
 *  - a read of the front unit (a repeat at the units' size): changes nothing;
 *  - a read of the second unit (the alternation of code and data pages): a swap of the two front
 *    units that, after the first of a run, is only counted (mpstack.c, settle_swaps).
 *  - a read of the second unit followed by a write of the first one before it (code fetched, data
 *    stored: a "write pair"), the front and second units the same before and after: in a run of
 *    them every pair after the first writes the same back and reads the same in (mpstack.c,
 *    write_pairs), so they too are only counted.
 * mpfront mirrors the front two units of the stack's move-to-front filter (the most recent unit
 * and the most recent one different from it), drops the repeats and counts the alternations of
 * each run of such reads into the word of the report that ends it (or, at the end of a call, one
 * RUN word), and a run of write pairs into one PAIRS word; mpstack_access_words applies them
 * exactly as the reports they stand for, in order (docs/metapaging.md, "Alternations folded on
 * the emulator's thread" and "Write pairs").
 *
 * Words out: alternations << MPFRONT_ALTS_SHIFT | unit << 1 | is_write (the alternations just
 * before that report), MPFRONT_RUN | alternations << MPFRONT_ALTS_SHIFT (a run no report ended
 * in this call), or MPFRONT_RUN | MPFRONT_PAIRS | pairs << MPFRONT_ALTS_SHIFT (that many write
 * pairs: a read of the second unit, then a write of the first). */
#ifndef EMU_MPFRONT_H
#define EMU_MPFRONT_H

#include <stddef.h>
#include <stdint.h>

#define MPFRONT_RUN (UINT64_C(1) << 63)
#define MPFRONT_PAIRS (UINT64_C(1) << 32) /* in a RUN word (no unit there): write pairs */
#define MPFRONT_ALTS_SHIFT 33 /* above a unit (< 2^32) and its write bit; below MPFRONT_RUN */
#define MPFRONT_UNIT_MASK ((UINT64_C(1) << MPFRONT_ALTS_SHIFT) - 1)
#define MPFRONT_ALTS(w) ((uint32_t)((w) >> MPFRONT_ALTS_SHIFT) & ((UINT32_C(1) << 30) - 1))
#define MPFRONT_NO_UNIT UINT32_MAX

struct mpfront {
    uint32_t front, second; /* the filter's unit[0] and unit[1] after the reports so far */
    uint64_t first_pfn, ram_pages;
    unsigned unit_shift;    /* unit = (pfn - first_pfn) >> unit_shift */
};

void mpfront_init(struct mpfront *f, uint64_t first_pfn, uint64_t ram_pages, unsigned unit_shift);

/* Reports in (pfn << 1 | is_write, n of them; those outside RAM are dropped) to words in out,
 * which has room for n + 1; returns the words written and adds the reports inside RAM to
 * *inside.  A run of folded reports never spans two calls, and n <= 2^30 (the alternations'
 * and the pairs' field). */
size_t mpfront_fold(struct mpfront *f, const uint64_t *in, size_t n, uint64_t *out,
                    uint64_t *inside);

#endif
