/* Packet layer of the trace format (docs/trace-format.md section 3): header bytes, LEB128 and
 * zigzag, the sample formats, and stateless builders for the non-sample packets.
 * Builders write at most MT_PKT_MAX bytes and return the length. */
#ifndef MT_PKT_H
#define MT_PKT_H

#include <stddef.h>
#include <stdint.h>

#include "mt_regs.h"

#define MT_PKT_MAX MT_MAX_PACKET

enum {
    MT_HDR_SYNC = 0x00,
    MT_HDR_RUN = 0x01,
    MT_HDR_SECTION = 0x02,
    MT_HDR_OVERFLOW = 0x03,
    MT_HDR_MARKER = 0x04,
    MT_HDR_END = 0x05,
    MT_HDR_FETCHES = 0x06, /* only in a runs stream (trace.mode=every-access-runs, section 4.2) */
    MT_HDR_SAMPLE = 0x80, /* 1ooo wrk0 */
};

/* Sample ops (header bits 6:4). */
enum { MT_OP_MATCH0 = 0, MT_OP_MATCH1 = 1, MT_OP_MATCH2 = 2, MT_OP_DELTA = 3, MT_OP_FULL = 4 };

#define MT_SAMPLE_RW   0x08u
#define MT_SAMPLE_RUN  0x04u
#define MT_SAMPLE_SKIP 0x02u

#define MT_SYNC_LEN_SIG 6    /* 00 00 00 00 00 80 */
#define MT_SYNC_ZEROS 5
#define MT_RUN_MAX 127u
#define MT_SKIP_MAX ((UINT64_C(1) << 40) - 1)
#define MT_PREV_BYTES_MAX 16383u
#define MT_CYCLE_BITS 48
#define MT_CYCLE_MASK ((UINT64_C(1) << MT_CYCLE_BITS) - 1)
#define MT_SECTION_FLAG_ONE 0x80u
/* FETCHES (docs/trace-format.md section 4.2): an element byte after the first element is
 * 0x40 | more << 7 | step4 << 4 | skip (0..15); the first element's LEB field dm is
 * zigzag56(address - fa) << 1 | more. */
#define MT_FETCH_ELEM_ONE 0x40u
#define MT_FETCH_ELEM_MORE 0x80u
#define MT_FETCH_ELEM_STEP4 0x10u
#define MT_FETCH_SKIP_MAX 15u
/* ... and the short form, a header 0x40..0x7F that is its first element (+2/+4 from fa):
 * 0x40 | more << 5 | step4 << 4 | skip */
#define MT_FETCH_SHORT 0x40u
#define MT_FETCH_SHORT_MORE 0x20u

/* LEB128 (unsigned, minimal). */
/* Hot in the trace unit's encoder (once per sample): inline. */
static inline size_t mt_leb_put(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

/* mt_leb_len by a table on the leading zeros (no division): the every-access recorder sizes two
 * values per sample */
static inline unsigned mt_leb_len_fast(uint64_t v)
{
    static const uint8_t by_clz[64] = {10, 9, 9, 9, 9, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 7, 7, 7, 7, 7, 7,
                                       7, 6, 6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4,
                                       4, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1};
    return by_clz[__builtin_clzll(v | 1)];
}

static inline unsigned mt_leb_len(uint64_t v)
{
    /* 7 value bits a byte; no loop: the every-access recorder sizes two values per sample */
    unsigned bits = 64u - (unsigned)__builtin_clzll(v | 1);
    return (bits + 6) / 7;
}

/* Hot in the decoder: inline. */
/* Reads a minimal LEB of at most max_bytes from p[0..n); returns bytes used, 0 if more input is
 * needed (n too small), or -1 when malformed (non-minimal, too long). */
static inline int mt_leb_get(const uint8_t *p, size_t n, unsigned max_bytes, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned i = 0; i < max_bytes; i++) {
        if (i >= n)
            return 0;
        uint8_t b = p[i];
        if (i == 9 && (b & 0x7e))
            return -1; /* beyond 64 bits */
        x |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            if (b == 0 && i > 0)
                return -1; /* non-minimal */
            *v = x;
            return (int)i + 1;
        }
    }
    return -1; /* longer than the field allows */
}

static inline uint64_t mt_mask_w(unsigned w)
{
    return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1;
}

/* d is a w-bit two's-complement value */
static inline uint64_t mt_zigzag(uint64_t d, unsigned w)
{
    d &= mt_mask_w(w);
    uint64_t sign = (d >> (w - 1)) & 1;
    return ((d << 1) ^ (sign ? mt_mask_w(w) : 0)) & mt_mask_w(w);
}

/* back to a w-bit two's-complement value */
static inline uint64_t mt_unzigzag(uint64_t z, unsigned w)
{
    uint64_t d = (z >> 1) ^ ((z & 1) ? mt_mask_w(w) : 0);
    return d & mt_mask_w(w);
}

/* bits of the address part */
static inline unsigned mt_fmt_width(unsigned fmt)
{
    static const unsigned w[4] = {44, 26, 56, 50};
    return w[fmt & 3];
}

/* Formats (MT_FMT_*). */
/* addr: 56-bit physical address; the part a sample reports (hot: inline) */
static inline uint64_t mt_fmt_addr_part(unsigned fmt, uint64_t addr)
{
    static const unsigned char shift[4] = {12, 30, 0, 6};
    return (addr & ((UINT64_C(1) << 56) - 1)) >> shift[fmt & 3];
}
uint64_t mt_fmt_value(unsigned fmt, uint64_t a, unsigned rw); /* the reported value */
uint64_t mt_fmt_part_to_addr(unsigned fmt, uint64_t a);   /* lowest byte address of the part */
const char *mt_fmt_name(unsigned fmt);

/* Non-sample packets. */
size_t mt_pkt_sync(uint8_t *out, uint8_t seq, uint32_t prev_bytes, uint64_t cycle);
size_t mt_pkt_run(uint8_t *out, unsigned n);
size_t mt_pkt_section(uint8_t *out, unsigned span, unsigned fmt, uint32_t r, uint64_t cycle);
size_t mt_pkt_overflow(uint8_t *out, uint32_t n);
size_t mt_pkt_marker(uint8_t *out, uint32_t value);
size_t mt_pkt_end(uint8_t *out, uint64_t samples, uint32_t dropped);

#endif
