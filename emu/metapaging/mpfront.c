/* Reports to units, alternations and repeats folded; see mpfront.h. */
#include "emu/metapaging/mpfront.h"

#include <stdbool.h>

void mpfront_init(struct mpfront *f, uint64_t first_pfn, uint64_t ram_pages, unsigned unit_shift)
{
    *f = (struct mpfront){.front = MPFRONT_NO_UNIT, .second = MPFRONT_NO_UNIT,
                          .first_pfn = first_pfn, .ram_pages = ram_pages,
                          .unit_shift = unit_shift};
}

#define RUN_WORD(alts, repeats) (MPFRONT_RUN | (uint64_t)(repeats) << 32 | (alts))

/* Units of 4 KiB (unit_shift 0): a unit is a RAM page, and its word (page << 1 | is_write) is
 * the report less RAM's first pfn (twice), so a report is compared with the two front units'
 * read words as soon as it is loaded: a folded report costs a load, a subtraction, a compare
 * and three moves, a kept one about twenty instructions.  (The emulator's thread, which does
 * this, has less to do than the stack pass's; a first version without branches on the report's
 * kind cost 60 host instructions a report, more than it took off the stack pass.)  A physical
 * address has at most 56 bits, so no report's word is NONE. */
#define NONE (UINT64_C(1) << 62)
#define ONE_REPEAT (UINT64_C(1) << 32)

static size_t fold_pages(struct mpfront *f, const uint64_t *in, size_t n, uint64_t *out,
                         uint64_t *inside)
{
    const uint64_t first2 = f->first_pfn << 1, words = f->ram_pages << 1;
    uint64_t front_w = f->front == MPFRONT_NO_UNIT ? NONE : (uint64_t)f->front << 1;
    uint64_t second_w = f->second == MPFRONT_NO_UNIT ? NONE : (uint64_t)f->second << 1;
    uint64_t run = 0, outside = 0; /* run: repeats << 32 | alternations */
    size_t k = 0;
    for (const uint64_t *p = in, *end = in + n; p < end; p++) {
        uint64_t w = *p - first2;
        if (w == second_w) { /* a read alternating (second is never front) */
            run++;
            second_w = front_w;
            front_w = w;
            continue;
        }
        if (w == front_w) { /* a repeated read: changes nothing */
            run += ONE_REPEAT;
            continue;
        }
        if (w >= words) { /* not RAM (rare): the stack pass skips it */
            outside++;
            continue;
        }
        out[k] = MPFRONT_RUN | run; /* kept only after something was folded */
        k += run != 0;
        run = 0;
        out[k++] = w;
        uint64_t read_w = w & ~UINT64_C(1);
        second_w = read_w != front_w ? front_w : second_w;
        front_w = read_w;
    }
    if (run)
        out[k++] = MPFRONT_RUN | run;
    f->front = front_w == NONE ? MPFRONT_NO_UNIT : (uint32_t)(front_w >> 1);
    f->second = second_w == NONE ? MPFRONT_NO_UNIT : (uint32_t)(second_w >> 1);
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
    uint64_t alts = 0, repeats = 0, outside = 0;
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
            if (u == front) {
                repeats++;
                continue;
            }
        }
        if (alts | repeats) {
            out[k++] = RUN_WORD(alts, repeats);
            alts = repeats = 0;
        }
        out[k++] = (uint64_t)u << 1 | (e & 1);
        if (u != front) {
            second = front;
            front = u;
        }
    }
    if (alts | repeats)
        out[k++] = RUN_WORD(alts, repeats);
    f->front = front;
    f->second = second;
    *inside += n - outside;
    return k;
}

/* Out never runs ahead of in: a RUN word goes out only after a report it stands for. */
size_t mpfront_fold(struct mpfront *f, const uint64_t *in, size_t n, uint64_t *out,
                    uint64_t *inside)
{
    return f->unit_shift ? fold_units(f, in, n, out, inside) : fold_pages(f, in, n, out, inside);
}
