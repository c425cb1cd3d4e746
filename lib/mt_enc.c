/* Sample compressor: see mt_enc.h. */
#include "mt_enc.h"

#include <string.h>

void mt_enc_reset(mt_enc *e, unsigned fmt)
{
    const uint8_t plain = e->plain;
    memset(e, 0, sizeof *e);
    e->fmt = (uint8_t)(fmt & 3);
    e->plain = plain;
}

void mt_enc_plan_sample(const mt_enc *e, uint64_t a, unsigned rw, uint64_t skip, mt_enc_plan *p)
{
    unsigned w = mt_fmt_width(e->fmt);
    a &= (UINT64_C(1) << w) - 1;
    rw &= 1;
    p->a = a;
    p->rw = (uint8_t)rw;
    p->len = 0;
    p->absorbed = 0;

    int match = -1;
    for (int i = 0; i < 3; i++) {
        if ((e->hist_valid >> i & 1) && e->hist[i] == a) {
            match = i;
            break;
        }
    }
    if (e->prev_valid && match == e->prev_idx && rw == e->prev_rw && skip == 0 &&
        e->run_cnt < MT_RUN_MAX) {
        p->absorbed = 1;
        p->op = (uint8_t)match;
        return;
    }

    uint8_t *out = p->bytes;
    unsigned n = 1;
    uint8_t hdr = MT_HDR_SAMPLE | (rw ? MT_SAMPLE_RW : 0);
    if (e->run_cnt) {
        hdr |= MT_SAMPLE_RUN;
        n += (unsigned)mt_leb_put(out + n, e->run_cnt);
    }
    if (skip) {
        hdr |= MT_SAMPLE_SKIP;
        n += (unsigned)mt_leb_put(out + n, skip > MT_SKIP_MAX ? MT_SKIP_MAX : skip);
    }
    if (match >= 0) {
        p->op = (uint8_t)match;
    } else {
        uint64_t z = 0;
        int delta = 0;
        if (e->hist_valid & 1) {
            z = mt_zigzag(a - e->hist[0], w);
            delta = mt_leb_len(z) < mt_leb_len(a);
        }
        if (delta) {
            p->op = MT_OP_DELTA;
            n += (unsigned)mt_leb_put(out + n, z);
        } else {
            p->op = MT_OP_FULL;
            n += (unsigned)mt_leb_put(out + n, a);
        }
    }
    out[0] = (uint8_t)(hdr | (p->op << 4));
    p->len = (uint8_t)n;
}

void mt_enc_commit(mt_enc *e, const mt_enc_plan *p)
{
    if (p->absorbed) {
        e->run_cnt++;
        return;
    }
    e->run_cnt = 0;
    if (e->plain)
        return; /* no history, no previous sample: the next one is FULL again */
    if (p->op == MT_OP_DELTA || p->op == MT_OP_FULL) {
        e->hist[2] = e->hist[1];
        e->hist[1] = e->hist[0];
        e->hist[0] = p->a;
        e->hist_valid = (uint8_t)(((e->hist_valid << 1) | 1) & 7);
        e->prev_idx = 0;
    } else {
        e->prev_idx = p->op;
    }
    e->prev_rw = p->rw;
    e->prev_valid = 1;
}

unsigned mt_enc_flush_run(mt_enc *e, uint8_t *out)
{
    if (!e->run_cnt)
        return 0;
    unsigned n = (unsigned)mt_pkt_run(out, e->run_cnt);
    e->run_cnt = 0;
    return n;
}

unsigned mt_enc_sample(mt_enc *e, uint64_t a, unsigned rw, uint64_t skip, uint8_t *out)
{
    mt_enc_plan p;
    mt_enc_plan_sample(e, a, rw, skip, &p);
    mt_enc_commit(e, &p);
    for (unsigned i = 0; i < p.len; i++)
        out[i] = p.bytes[i];
    return p.len;
}
