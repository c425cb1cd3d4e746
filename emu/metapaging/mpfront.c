/* Reports to units, alternations and repeats folded; see mpfront.h. */
#include "emu/metapaging/mpfront.h"

#include <stdbool.h>

void mpfront_init(struct mpfront *f, uint64_t first_pfn, uint64_t ram_pages, unsigned unit_shift)
{
    *f = (struct mpfront){.front = MPFRONT_NO_UNIT, .second = MPFRONT_NO_UNIT,
                          .first_pfn = first_pfn, .ram_pages = ram_pages,
                          .unit_shift = unit_shift};
}

/* Units of 4 KiB (unit_shift 0): a unit is a RAM page, and its word (page << 1 | is_write) is
 * the report less RAM's first pfn (twice), so a report is compared with the two front units'
 * read words as soon as it is loaded: a folded report costs a load, a subtraction, a compare
 * and three moves, a kept one about twenty instructions.  (The emulator's thread, which does
 * this, has less to do than the stack pass's; a first version without branches on the report's
 * kind cost 60 host instructions a report, more than it took off the stack pass.)  A physical
 * address has at most 56 bits, so no report's word is NONE. */
#define NONE (UINT64_C(1) << 62)

static size_t fold_pages(struct mpfront *f, const uint64_t *in, size_t n, uint64_t *out,
                         uint64_t *inside)
{
    const uint64_t first2 = f->first_pfn << 1, words = f->ram_pages << 1;
    /* a and b hold the two front units' read words; which of them is the front depends on the
     * loop: in `front_a` it is a, in `front_b` b.  An alternation only moves to the other loop,
     * so it costs no move at all. */
    uint64_t a = f->front == MPFRONT_NO_UNIT ? NONE : (uint64_t)f->front << 1;
    uint64_t b = f->second == MPFRONT_NO_UNIT ? NONE : (uint64_t)f->second << 1;
    uint64_t run = 0, outside = 0; /* run: the alternations since the last report kept */
    uint64_t pairs = 0;            /* write pairs since then (run is 0 after each) */
    uint64_t w;
    size_t k = 0;
    const uint64_t *p = in, *end = in + n;
/* A report kept: its word (after the write pairs before it), with the alternations folded
 * since the last one; the front and second units become (front, second) of the filter again. */
#define KEEP(front, second)                                                                     \
    do {                                                                                        \
        if (w >= words) { /* not RAM (rare): the stack pass skips it */                         \
            outside++;                                                                          \
            break;                                                                              \
        }                                                                                       \
        if (pairs) {                                                                            \
            out[k++] = MPFRONT_RUN | MPFRONT_PAIRS | pairs << MPFRONT_ALTS_SHIFT;               \
            pairs = 0;                                                                          \
        }                                                                                       \
        out[k++] = w | run << MPFRONT_ALTS_SHIFT;                                               \
        run = 0;                                                                                \
        uint64_t read_w = w & ~UINT64_C(1);                                                     \
        second = read_w != front ? front : second;                                              \
        front = read_w;                                                                         \
    } while (0)
front_a:
    while (p < end) {
        w = *p++ - first2;
        if (w == b) { /* a read alternating: b is the front now (b is never a) */
            run++;
            goto front_b;
        }
        if (w == b + 1 && run == 1) { /* b written after one read of a: a write pair */
            pairs++;
            run = 0;
            goto front_b;
        }
        if (w != a) /* (a repeated read changes nothing) */
            KEEP(a, b);
    }
    goto done;
front_b:
    while (p < end) {
        w = *p++ - first2;
        if (w == a) {
            run++;
            goto front_a;
        }
        if (w == a + 1 && run == 1) {
            pairs++;
            run = 0;
            goto front_a;
        }
        if (w != b)
            KEEP(b, a);
    }
    /* the front is b: name it a */
    w = a, a = b, b = w;
done:
#undef KEEP
    if (pairs) /* (before the alternations after them) */
        out[k++] = MPFRONT_RUN | MPFRONT_PAIRS | pairs << MPFRONT_ALTS_SHIFT;
    if (run)
        out[k++] = MPFRONT_RUN | run << MPFRONT_ALTS_SHIFT;
    f->front = a == NONE ? MPFRONT_NO_UNIT : (uint32_t)(a >> 1);
    f->second = b == NONE ? MPFRONT_NO_UNIT : (uint32_t)(b >> 1);
    *inside += n - outside;
    return k;
}

/* Larger units: several pages are one unit, so reports are compared as units. */
static size_t fold_units(struct mpfront *f, const uint64_t *in, size_t n, uint64_t *out,
                         uint64_t *inside)
{
    uint32_t front = f->front, second = f->second;
    const uint64_t first = f->first_pfn, pages = f->ram_pages;
    const unsigned shift = f->unit_shift;
    uint64_t alts = 0, outside = 0, pairs = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t e = in[i], page = (e >> 1) - first;
        if (page >= pages) {
            outside++;
            continue;
        }
        uint32_t u = (uint32_t)(page >> shift);
        if (!(e & 1)) {
            if (u == second) {
                alts++;
                second = front;
                front = u;
                continue;
            }
            if (u == front) /* a repeated read: changes nothing */
                continue;
        } else if (u == second && alts == 1) { /* written after one read of front: a pair */
            pairs++;
            alts = 0;
            second = front;
            front = u;
            continue;
        }
        if (pairs) {
            out[k++] = MPFRONT_RUN | MPFRONT_PAIRS | pairs << MPFRONT_ALTS_SHIFT;
            pairs = 0;
        }
        out[k++] = alts << MPFRONT_ALTS_SHIFT | (uint64_t)u << 1 | (e & 1);
        alts = 0;
        if (u != front) {
            second = front;
            front = u;
        }
    }
    if (pairs)
        out[k++] = MPFRONT_RUN | MPFRONT_PAIRS | pairs << MPFRONT_ALTS_SHIFT;
    if (alts)
        out[k++] = MPFRONT_RUN | alts << MPFRONT_ALTS_SHIFT;
    f->front = front;
    f->second = second;
    *inside += n - outside;
    return k;
}

/* Out never runs ahead of in: a word goes out only after a report it stands for. */
size_t mpfront_fold(struct mpfront *f, const uint64_t *in, size_t n, uint64_t *out,
                    uint64_t *inside)
{
    return f->unit_shift ? fold_units(f, in, n, out, inside) : fold_pages(f, in, n, out, inside);
}
