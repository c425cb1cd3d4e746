/* Packet layer: see mt_pkt.h and docs/trace-format.md. */
#include "mt_pkt.h"

static unsigned fmt_shift(unsigned fmt)
{
    static const unsigned s[4] = {12, 30, 0, 6};
    return s[fmt & 3];
}

uint64_t mt_fmt_value(unsigned fmt, uint64_t a, unsigned rw)
{
    static const unsigned rwbit[4] = {47, 31, 56, 50};
    return ((uint64_t)(rw & 1) << rwbit[fmt & 3]) | (a & mt_mask_w(mt_fmt_width(fmt)));
}

uint64_t mt_fmt_part_to_addr(unsigned fmt, uint64_t a)
{
    return a << fmt_shift(fmt);
}

const char *mt_fmt_name(unsigned fmt)
{
    static const char *n[4] = {"48", "32", "full", "line"};
    return n[fmt & 3];
}

size_t mt_pkt_sync(uint8_t *out, uint8_t seq, uint32_t prev_bytes, uint64_t cycle)
{
    size_t n = 0;
    for (int i = 0; i < MT_SYNC_ZEROS; i++)
        out[n++] = 0;
    out[n++] = 0x80;
    out[n++] = seq;
    n += mt_leb_put(out + n, prev_bytes > MT_PREV_BYTES_MAX ? MT_PREV_BYTES_MAX : prev_bytes);
    n += mt_leb_put(out + n, cycle & MT_CYCLE_MASK);
    return n;
}

size_t mt_pkt_run(uint8_t *out, unsigned n)
{
    out[0] = MT_HDR_RUN;
    return 1 + mt_leb_put(out + 1, n);
}

size_t mt_pkt_section(uint8_t *out, unsigned span, unsigned fmt, uint32_t r, uint64_t cycle)
{
    size_t n = 0;
    out[n++] = MT_HDR_SECTION;
    out[n++] = (uint8_t)(MT_SECTION_FLAG_ONE | ((fmt & 3) << 1) | (span & 1));
    n += mt_leb_put(out + n, r ? r : 1);
    n += mt_leb_put(out + n, cycle & MT_CYCLE_MASK);
    return n;
}

size_t mt_pkt_overflow(uint8_t *out, uint32_t n)
{
    out[0] = MT_HDR_OVERFLOW;
    return 1 + mt_leb_put(out + 1, n);
}

size_t mt_pkt_marker(uint8_t *out, uint32_t value)
{
    out[0] = MT_HDR_MARKER;
    return 1 + mt_leb_put(out + 1, value);
}

size_t mt_pkt_end(uint8_t *out, uint64_t samples, uint32_t dropped)
{
    size_t n = 0;
    out[n++] = MT_HDR_END;
    n += mt_leb_put(out + n, samples & MT_CYCLE_MASK);
    n += mt_leb_put(out + n, dropped);
    return n;
}
