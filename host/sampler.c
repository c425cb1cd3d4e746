#include "host/sampler.h"

#include <string.h>

void sampler_defaults(sampler_config *c)
{
    c->r_h = 24;
    c->r_l = 2048;
    c->len_h = 1000000000u;
    c->len_l = UINT64_C(10000000000);
    c->fmt_h = HT_FMT_48;
    c->fmt_l = HT_FMT_32;
    c->start = 0;
}

void sampler_init(sampler *s, const sampler_config *c)
{
    memset(s, 0, sizeof *s);
    s->c = *c;
}

static void enter(sampler *s, int span, uint64_t start)
{
    if (span && s->c.len_l == 0)
        span = 0;
    if (!span && s->c.len_h == 0)
        span = 1;
    s->span = span;
    s->sec_start = start;
    s->sec_end = start + (span ? s->c.len_l : s->c.len_h);
    s->rate = span ? s->c.r_l : s->c.r_h;
    if (!s->rate)
        s->rate = 1;
    s->captured_sp = 0;
}

int sampler_access(sampler *s, const mt_access *a, ht_record out[3])
{
    int n = 0;
    if (!s->started) {
        s->started = 1;
        enter(s, 0, s->c.start);
        out[n++] = (ht_record){.cycle = s->sec_start, .kind = HT_REC_SECTION, .section = HT_SEC_BURST,
                               .format = (uint8_t)s->c.fmt_h, .value = s->rate};
    }
    if (a->cycle < s->sec_start)
        return n;
    int switched = 0;
    while (a->cycle >= s->sec_end) {
        enter(s, !s->span, s->sec_end);
        switched = 1;
    }
    if (switched) /* only the section the access falls in is announced */
        out[n++] = (ht_record){.cycle = s->sec_start, .kind = HT_REC_SECTION,
                               .section = (uint8_t)(s->span ? HT_SEC_SPAN : HT_SEC_BURST),
                               .format = (uint8_t)(s->span ? s->c.fmt_l : s->c.fmt_h), .value = s->rate};
    uint64_t sp = s->sec_start + (a->cycle - s->sec_start) / s->rate * s->rate;
    if (s->captured_sp == sp + 1)
        return n; /* the interval already has its sample */
    s->captured_sp = sp + 1;
    ht_format f = s->span ? s->c.fmt_l : s->c.fmt_h;
    out[n++] = (ht_record){.cycle = sp, .addr = ht_addr_for_format(a->addr, f), .kind = HT_REC_SAMPLE,
                           .write = a->write, .format = (uint8_t)f,
                           .section = (uint8_t)(s->span ? HT_SEC_SPAN : HT_SEC_BURST)};
    return n;
}
