/* Packed fetch records: up to 7 instruction fetches of straight-line code in one mt_access_rec,
 * between the every-access recorder's producer (emu/cpu/cpu.c rec_expand, for the runs stream
 * only) and the runs writer (lib/mt_swenc.c runs_rate1), so that neither writes nor reads a
 * 16-byte record per fetch.  docs/trace-unit.md section 8, "Packed fetches".
 *
 * A packed record (addr_rw has MT_ACCESS_REC_FETCH and MT_ACCESS_REC_PACKED) stands for
 * cnt = 1 + bits 56..58 fetches; byte j of addr_rw (j < cnt) is fetch j's FETCHES element byte
 * as docs/trace-format.md section 4.2 writes it: 0x40 | t << 4 | skip, with the "more" bit 0x80
 * set on every byte but the last.  Fetch j is at the previous fetch's address + (t ? 4 : 2) and
 * at the previous record's stamp + skip + 1, where for j = 0 "previous fetch" is the last fetch
 * before the packed record in the records' order and "previous record" the record just before it
 * (a fetch or a data access); the record's own cycle is the last fetch's stamp.  So a batch that
 * holds packed records is the same access sequence as its expansion (mt_fetchpack_expand), as
 * long as nothing is removed from it: a consumer that drops records (the one-per-cycle rule, a
 * range filter) expands first.  A producer never starts a batch with a packed record, and
 * writes a plain fetch record before the first packed one of every expansion, so a batch can be
 * expanded from its own records alone. */
#ifndef MT_FETCHPACK_H
#define MT_FETCHPACK_H

#include <stddef.h>
#include <stdint.h>

#include "mt_event.h"

#define MT_ACCESS_REC_PACKED (UINT64_C(1) << 61)
#define MT_FETCHPACK_MAX 7u
#define MT_FETCHPACK_CNT_SHIFT 56
/* the t bits of the 7 element bytes */
#define MT_FETCHPACK_STEP4_BITS UINT64_C(0x0010101010101010)

static inline int mt_fetchpack_is_packed(uint64_t addr_rw) { return (addr_rw & MT_ACCESS_REC_PACKED) != 0; }

/* the number of fetches a packed record holds */
static inline unsigned mt_fetchpack_count(uint64_t addr_rw)
{
    return 1u + (unsigned)((addr_rw >> MT_FETCHPACK_CNT_SHIFT) & 7u);
}

/* the accesses n records stand for: one each, cnt for a packed one (a plain record's bits 56..58
 * are 0) */
static inline uint64_t mt_fetchpack_accesses(const mt_access_rec *r, size_t n)
{
    uint64_t k = n;
    for (size_t i = 0; i < n; i++)
        k += (r[i].addr_rw >> MT_FETCHPACK_CNT_SHIFT) & 7u;
    return k;
}

/* the bytes from the first fetch's address to the last's: the sum of the elements' steps */
static inline uint64_t mt_fetchpack_span(uint64_t addr_rw)
{
    const unsigned cnt = mt_fetchpack_count(addr_rw);
    /* the t bits moved to bit 0 of each byte, summed into the top byte by the multiply (no
     * popcount instruction in the baseline x86-64) */
    const uint64_t t = (addr_rw & MT_FETCHPACK_STEP4_BITS & ((UINT64_C(1) << (8 * cnt)) - 1)) >> 4;
    return 2u * cnt + 2u * ((t * UINT64_C(0x0101010101010101)) >> 56);
}

/* The expansion's running state: the last record's stamp and the last fetch's address. */
typedef struct {
    uint64_t last_cycle, last_fetch;
} mt_fetchpack_pos;

/* Record r as the plain records it stands for, into out (room for MT_FETCHPACK_MAX); returns how
 * many.  pos moves past it. */
static inline unsigned mt_fetchpack_expand_one(mt_access_rec r, mt_fetchpack_pos *pos, mt_access_rec *out)
{
    if (!mt_fetchpack_is_packed(r.addr_rw)) {
        out[0] = r;
        pos->last_cycle = r.cycle;
        if (r.addr_rw & MT_ACCESS_REC_FETCH)
            pos->last_fetch = r.addr_rw & MT_PADDR_MASK;
        return 1;
    }
    const unsigned cnt = mt_fetchpack_count(r.addr_rw);
    uint64_t cy = pos->last_cycle, a = pos->last_fetch;
    for (unsigned j = 0; j < cnt; j++) {
        const unsigned e = (unsigned)(r.addr_rw >> (8 * j)) & 0xffu;
        a = (a + (e & 0x10u ? 4 : 2)) & MT_PADDR_MASK;
        cy += (e & 0x0fu) + 1u;
        out[j] = (mt_access_rec){.cycle = cy, .addr_rw = a | MT_ACCESS_REC_FETCH};
    }
    pos->last_cycle = cy;
    pos->last_fetch = a;
    return cnt;
}

#endif
