/* Streaming packet decoder: see mt_dec.h and docs/trace-format.md section 3.1. */
#include "mt_dec.h"

#include <string.h>

#include "mt_event.h" /* MT_PADDR_BITS */

void mt_dec_init(mt_dec *d, mt_dec_cb cb, void *ctx)
{
    memset(d, 0, sizeof *d);
    d->cb = cb;
    d->ctx = ctx;
    d->rate = 1;
}

static void emit(mt_dec *d, mt_dec_event *ev)
{
    if (ev->type == MT_DEV_LOSS) {
        d->losses++;
        d->bytes_skipped += ev->count;
    }
    d->cb(d->ctx, ev);
}

static void loss(mt_dec *d, uint64_t off, uint64_t count, const char *what)
{
    mt_dec_event ev = {.type = MT_DEV_LOSS, .offset = off, .count = count, .what = what};
    emit(d, &ev);
}

static void reset_history(mt_dec *d)
{
    d->hist_valid = 0;
    d->prev_valid = 0;
    d->fa = 0;
}

/* 48-bit cycle from a packet, extended to 64 bits next to ref. */
static uint64_t unwrap(uint64_t c48, uint64_t ref)
{
    const uint64_t span = UINT64_C(1) << MT_CYCLE_BITS, half = span >> 1;
    uint64_t c = (ref & ~MT_CYCLE_MASK) | c48;
    if (c + half < ref)
        c += span;
    else if (c > ref + half && c >= span)
        c -= span;
    return c;
}

static void lose_sync(mt_dec *d, uint64_t off, const char *what)
{
    loss(d, off, 0, what);
    d->synced = 0;
    d->zrun = 0;
    d->scan_start = off;
}

static void report_sample(mt_dec *d, uint64_t off, uint64_t a, unsigned rw, uint64_t skip)
{
    mt_dec_event ev = {.type = MT_DEV_SAMPLE, .offset = off, .cycle = d->ptr,
                       .value = mt_fmt_value(d->fmt, a, rw), .addr = a, .skip = skip,
                       .rate = d->rate, .rw = (uint8_t)rw, .fmt = d->fmt, .span = d->span};
    d->samples++;
    d->ptr += d->rate;
    emit(d, &ev);
}

/* FETCHES (docs/trace-format.md section 4.2): reads at consecutive instruction addresses, each a
 * full-format sample; the history and the previous sample (SAMPLE's and RUN's state) are not
 * touched.  Checked whole before anything is applied, as every packet. */
static int fetches(mt_dec *d, const uint8_t *p, size_t n, uint64_t off, const char **why)
{
    uint64_t skip, dm, delta;
    size_t i = 1;
    int k, more;
    if (p[0] & MT_FETCH_SHORT) { /* the short form: the header is the first element */
        skip = p[0] & MT_FETCH_SKIP_MAX;
        delta = p[0] & MT_FETCH_ELEM_STEP4 ? 4 : 2;
        more = (p[0] & MT_FETCH_SHORT_MORE) != 0;
    } else {
        if ((k = mt_leb_get(p + i, n - i, 6, &skip)) <= 0)
            goto leb;
        i += (size_t)k;
        if ((k = mt_leb_get(p + i, n - i, 9, &dm)) <= 0)
            goto leb;
        i += (size_t)k;
        if (skip > MT_SKIP_MAX || (dm >> 1) >> MT_PADDR_BITS) {
            *why = "FETCHES field out of range";
            return -1;
        }
        delta = mt_unzigzag(dm >> 1, MT_PADDR_BITS);
        more = (int)(dm & 1);
    }
    const size_t first = i; /* the element bytes after the first element */
    for (; more; i++) {
        if (i >= n)
            return i >= MT_PKT_MAX ? (*why = "FETCHES longer than a packet", -1) : 0;
        if (!(p[i] & MT_FETCH_ELEM_ONE) || (p[i] & 0x20)) {
            *why = "bad FETCHES element";
            return -1;
        }
        more = p[i] & MT_FETCH_ELEM_MORE;
    }
    if (i > MT_PKT_MAX) {
        *why = "FETCHES longer than a packet";
        return -1;
    }
    if (!d->have_section || d->fmt != MT_FMT_FULL) {
        *why = d->have_section ? "FETCHES outside a full-format section" : "FETCHES before the SECTION that follows a SYNC";
        return -1;
    }
    const uint64_t mask = (UINT64_C(1) << MT_PADDR_BITS) - 1;
    uint64_t a = (d->fa + delta) & mask;
    d->ptr += skip * d->rate;
    report_sample(d, off, a, 0, skip);
    for (size_t j = first; j < i; j++) {
        const uint64_t s = p[j] & MT_FETCH_SKIP_MAX;
        a = (a + (p[j] & MT_FETCH_ELEM_STEP4 ? 4 : 2)) & mask;
        d->ptr += s * d->rate;
        report_sample(d, off, a, 0, s);
    }
    d->fa = a;
    return (int)i;
leb:
    if (k == 0)
        return 0;
    *why = "malformed LEB field";
    return -1;
}

/* Parses and applies one packet at p[0..n) (stream offset off).
 * Returns bytes consumed, 0 if the packet continues past n, -1 on a malformed packet
 * (*why set). Nothing is applied unless the whole packet is present. */
static int packet(mt_dec *d, const uint8_t *p, size_t n, uint64_t off, const char **why)
{
    if (n == 0)
        return 0;
    uint8_t h = p[0];
    uint64_t v1 = 0, v2 = 0;
    int k;
    size_t i = 1;
    mt_dec_event ev = {.offset = off};

    if (h == MT_HDR_SYNC) {
        for (; i < MT_SYNC_LEN_SIG; i++) {
            if (i >= n)
                return 0;
            if (p[i] != (i == MT_SYNC_LEN_SIG - 1 ? 0x80 : 0)) {
                *why = "bad SYNC signature";
                return -1;
            }
        }
        if (i >= n)
            return 0;
        uint8_t seq = p[i++];
        if ((k = mt_leb_get(p + i, n - i, 2, &v1)) <= 0)
            goto leb;
        i += (size_t)k;
        if ((k = mt_leb_get(p + i, n - i, 7, &v2)) <= 0)
            goto leb;
        i += (size_t)k;
        if (v1 > MT_PREV_BYTES_MAX || v2 > MT_CYCLE_MASK) {
            *why = "SYNC field out of range";
            return -1;
        }
        /* loss detection against the previous SYNC of this session */
        if (d->have_sync && seq != 0) {
            if (seq != (uint8_t)(d->last_seq + 1))
                loss(d, off, 0, "SYNC sequence gap: SYNC periods lost");
            else if (v1 < MT_PREV_BYTES_MAX && v1 != off - d->last_sync_offset)
                loss(d, off, 0, "byte count since previous SYNC differs: bytes lost");
        }
        d->have_sync = 1;
        d->last_seq = seq;
        d->last_sync_offset = off;
        d->have_section = 0;
        d->session_ended = 0;
        reset_history(d);
        ev.type = MT_DEV_SYNC;
        ev.cycle = unwrap(v2, d->ptr);
        ev.count = seq;
        ev.value = v1;
        d->ptr = ev.cycle; /* provisional reference until the SECTION */
        emit(d, &ev);
        return (int)i;
    }
    if (d->session_ended) {
        *why = "packet after END that is not a SYNC";
        return -1;
    }
    if (h & 0x80) { /* SAMPLE */
        unsigned op = (h >> 4) & 7, rw = (h & MT_SAMPLE_RW) ? 1 : 0;
        uint64_t run = 0, skip = 0, pay = 0;
        if ((h & 1) || op > MT_OP_FULL) {
            *why = "reserved SAMPLE encoding";
            return -1;
        }
        if (h & MT_SAMPLE_RUN) {
            if ((k = mt_leb_get(p + i, n - i, 1, &run)) <= 0)
                goto leb;
            i += (size_t)k;
            if (run == 0) {
                *why = "SAMPLE run prefix of 0";
                return -1;
            }
        }
        if (h & MT_SAMPLE_SKIP) {
            if ((k = mt_leb_get(p + i, n - i, 6, &skip)) <= 0)
                goto leb;
            i += (size_t)k;
            if (skip == 0 || skip > MT_SKIP_MAX) {
                *why = "SAMPLE skip prefix out of range";
                return -1;
            }
        }
        unsigned w = mt_fmt_width(d->fmt);
        if (op >= MT_OP_DELTA) {
            if ((k = mt_leb_get(p + i, n - i, (w + 6) / 7, &pay)) <= 0)
                goto leb;
            i += (size_t)k;
            if (pay >> w) {
                *why = "SAMPLE payload wider than the format";
                return -1;
            }
        }
        /* semantics */
        if (!d->have_section) {
            *why = "SAMPLE before the SECTION that follows a SYNC";
            return -1;
        }
        if (run && !d->prev_valid) {
            *why = "run of a previous sample that does not exist";
            return -1;
        }
        uint64_t a;
        if (op <= MT_OP_MATCH2) {
            if (!(d->hist_valid >> op & 1)) {
                *why = "MATCH of an empty history entry";
                return -1;
            }
            a = d->hist[op];
        } else if (op == MT_OP_DELTA) {
            if (!(d->hist_valid & 1)) {
                *why = "DELTA with an empty history";
                return -1;
            }
            a = (d->hist[0] + mt_unzigzag(pay, w)) & ((UINT64_C(1) << w) - 1);
        } else {
            a = pay;
        }
        for (uint64_t r = 0; r < run; r++)
            report_sample(d, off, d->prev_a, d->prev_rw, 0);
        d->ptr += skip * d->rate;
        report_sample(d, off, a, rw, skip);
        if (op >= MT_OP_DELTA) {
            d->hist[2] = d->hist[1];
            d->hist[1] = d->hist[0];
            d->hist[0] = a;
            d->hist_valid = (uint8_t)(((d->hist_valid << 1) | 1) & 7);
        }
        d->prev_a = a;
        d->prev_rw = (uint8_t)rw;
        d->prev_valid = 1;
        return (int)i;
    }
    if ((h == MT_HDR_FETCHES || (h & MT_FETCH_SHORT)) && d->runs)
        return fetches(d, p, n, off, why);
    switch (h) {
    case MT_HDR_RUN:
        if ((k = mt_leb_get(p + i, n - i, 1, &v1)) <= 0)
            goto leb;
        i += (size_t)k;
        if (v1 == 0) {
            *why = "RUN of 0";
            return -1;
        }
        if (!d->have_section || !d->prev_valid) {
            *why = "RUN without a previous sample";
            return -1;
        }
        for (uint64_t r = 0; r < v1; r++)
            report_sample(d, off, d->prev_a, d->prev_rw, 0);
        return (int)i;
    case MT_HDR_SECTION: {
        if (i >= n)
            return 0;
        uint8_t f = p[i++];
        if (!(f & MT_SECTION_FLAG_ONE) || (f & 0x78)) {
            *why = "bad SECTION flags";
            return -1;
        }
        if ((k = mt_leb_get(p + i, n - i, 5, &v1)) <= 0)
            goto leb;
        i += (size_t)k;
        if ((k = mt_leb_get(p + i, n - i, 7, &v2)) <= 0)
            goto leb;
        i += (size_t)k;
        if (v1 == 0 || v1 > UINT32_MAX || v2 > MT_CYCLE_MASK) {
            *why = "SECTION field out of range";
            return -1;
        }
        if (!d->have_sync) {
            *why = "SECTION before any SYNC";
            return -1;
        }
        d->span = f & 1;
        d->fmt = (f >> 1) & 3;
        d->rate = (uint32_t)v1;
        d->ptr = unwrap(v2, d->ptr);
        d->have_section = 1;
        reset_history(d);
        ev.type = MT_DEV_SECTION;
        ev.cycle = d->ptr;
        ev.span = d->span;
        ev.fmt = d->fmt;
        ev.rate = d->rate;
        emit(d, &ev);
        return (int)i;
    }
    case MT_HDR_OVERFLOW:
    case MT_HDR_MARKER:
        if ((k = mt_leb_get(p + i, n - i, 5, &v1)) <= 0)
            goto leb;
        i += (size_t)k;
        if (v1 > UINT32_MAX || (h == MT_HDR_OVERFLOW && v1 == 0)) {
            *why = "OVERFLOW/MARKER value out of range";
            return -1;
        }
        ev.type = h == MT_HDR_OVERFLOW ? MT_DEV_OVERFLOW : MT_DEV_MARKER;
        ev.count = ev.value = v1;
        ev.cycle = d->ptr;
        emit(d, &ev);
        return (int)i;
    case MT_HDR_END:
        if ((k = mt_leb_get(p + i, n - i, 7, &v1)) <= 0)
            goto leb;
        i += (size_t)k;
        if ((k = mt_leb_get(p + i, n - i, 5, &v2)) <= 0)
            goto leb;
        i += (size_t)k;
        if (v1 > MT_CYCLE_MASK || v2 > UINT32_MAX) {
            *why = "END field out of range";
            return -1;
        }
        ev.type = MT_DEV_END;
        ev.value = v1;
        ev.count = v2;
        ev.cycle = d->ptr;
        d->session_ended = 1;
        d->have_sync = 0;
        emit(d, &ev);
        return (int)i;
    default:
        *why = "reserved packet header";
        return -1;
    }
leb:
    if (k == 0)
        return 0;
    *why = "malformed LEB field";
    return -1;
}

/* Scans p[0..n) for a SYNC signature; returns the index in p where the SYNC starts relative to
 * the scan position semantics: the number of bytes consumed up to and including the 0x80, or
 * n if none was completed. *found set when a signature ends inside. */
static size_t scan(mt_dec *d, const uint8_t *p, size_t n, int *found)
{
    *found = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == 0) {
            d->zrun++;
        } else if (p[i] == 0x80 && d->zrun >= MT_SYNC_ZEROS) {
            *found = 1;
            return i + 1;
        } else {
            d->zrun = 0;
        }
    }
    return n;
}

void mt_dec_feed(mt_dec *d, const uint8_t *p, size_t n)
{
    while (n > 0) {
        if (!d->synced) {
            int found;
            size_t used = scan(d, p, n, &found);
            d->offset += used;
            p += used;
            n -= used;
            if (!found)
                return;
            uint64_t sync_off = d->offset - MT_SYNC_LEN_SIG;
            if (sync_off > d->scan_start)
                loss(d, d->scan_start, sync_off - d->scan_start, "bytes skipped looking for a SYNC");
            /* put the signature back as the start of a packet */
            memset(d->carry, 0, MT_SYNC_ZEROS);
            d->carry[MT_SYNC_ZEROS] = 0x80;
            d->carry_len = MT_SYNC_LEN_SIG;
            d->offset = sync_off;
            d->synced = 1;
            d->zrun = 0;
            continue;
        }
        if (d->carry_len) {
            /* d->offset is the offset of carry[0]; complete the split packet from the input */
            unsigned old = d->carry_len;
            size_t take = sizeof d->carry - old;
            if (take > n)
                take = n;
            memcpy(d->carry + old, p, take);
            const char *why = NULL;
            int k = packet(d, d->carry, old + take, d->offset, &why);
            if (k == 0) {
                if (old + take >= sizeof d->carry) { /* cannot happen: packets are <= 16 bytes */
                    d->carry_len = 0;
                    lose_sync(d, d->offset, "packet longer than the maximum");
                    continue;
                }
                d->carry_len = old + (unsigned)take; /* all input is now in the carry */
                return;
            }
            if (k > 0) {
                d->offset += (uint64_t)k;
                if ((unsigned)k <= old) { /* the packet lay inside the old carry */
                    memmove(d->carry, d->carry + k, old - (unsigned)k);
                    d->carry_len = old - (unsigned)k;
                } else {
                    d->carry_len = 0;
                    p += (size_t)k - old;
                    n -= (size_t)k - old;
                }
                continue;
            }
            /* malformed: scan again from the byte after the packet's first one, first through the
             * rest of the old carry, then through the input */
            uint64_t bad = d->offset;
            lose_sync(d, bad, why);
            uint8_t tmp[sizeof d->carry];
            unsigned tl = old - 1;
            memcpy(tmp, d->carry + 1, tl);
            d->carry_len = 0;
            d->offset = bad + 1;
            int found;
            size_t used = scan(d, tmp, tl, &found);
            if (found) {
                uint64_t sync_off = d->offset + used - MT_SYNC_LEN_SIG;
                if (sync_off > d->scan_start)
                    loss(d, d->scan_start, sync_off - d->scan_start, "bytes skipped looking for a SYNC");
                size_t rest = tl - used;
                memset(d->carry, 0, MT_SYNC_ZEROS);
                d->carry[MT_SYNC_ZEROS] = 0x80;
                memcpy(d->carry + MT_SYNC_LEN_SIG, tmp + used, rest);
                d->carry_len = MT_SYNC_LEN_SIG + (unsigned)rest;
                d->offset = sync_off;
                d->synced = 1;
                d->zrun = 0;
            } else {
                d->offset += tl;
            }
            continue;
        }
        const char *why = NULL;
        int k = packet(d, p, n, d->offset, &why);
        if (k > 0) {
            d->offset += (uint64_t)k;
            p += k;
            n -= (size_t)k;
        } else if (k == 0) {
            memcpy(d->carry, p, n);
            d->carry_len = (unsigned)n;
            return;
        } else {
            lose_sync(d, d->offset, why);
            d->offset += 1;
            p += 1;
            n -= 1;
        }
    }
}

void mt_dec_finish(mt_dec *d)
{
    if (d->synced && d->carry_len) {
        loss(d, d->offset, d->carry_len, "stream ends inside a packet");
        d->carry_len = 0;
    } else if (!d->synced && d->offset > d->scan_start) {
        loss(d, d->scan_start, d->offset - d->scan_start, "no SYNC found in the remaining bytes");
    }
    d->scan_start = d->offset;
}
