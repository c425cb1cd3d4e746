/* The runs stream's reader: see mt_runs.h. */
#include "mt_runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sink(void *ctx, const uint8_t *p, size_t n)
{
    mt_runs_reader *r = ctx;
    if (r->failed)
        return;
    if (r->out_len + n > r->out_cap) {
        size_t nc = r->out_cap ? r->out_cap : 1 << 16;
        while (nc < r->out_len + n)
            nc *= 2;
        uint8_t *nb = realloc(r->out, nc);
        if (!nb) {
            r->failed = 1;
            snprintf(r->err, sizeof r->err, "out of memory rebuilding the records");
            return;
        }
        r->out = nb;
        r->out_cap = nc;
    }
    memcpy(r->out + r->out_len, p, n);
    r->out_len += n;
}

static void fail(mt_runs_reader *r, uint64_t off, const char *what)
{
    if (!r->failed)
        snprintf(r->err, sizeof r->err, "runs stream: %s at stream offset %llu: the records cannot be rebuilt",
                 what, (unsigned long long)off);
    r->failed = 1;
}

/* Each event of the runs stream as the records writer made it: samples, markers and overflows in
 * order, one section at the start (the repeats after each SYNC are the runs stream's own; the
 * encoder places the records stream's SYNCs by its own byte count), and the END. */
static void on_event(void *ctx, const mt_dec_event *ev)
{
    mt_runs_reader *r = ctx;
    int rc = 0;
    if (r->failed)
        return;
    switch (ev->type) {
    case MT_DEV_SAMPLE: rc = mt_swenc_sample(&r->enc, ev->cycle, ev->addr, ev->rw); break;
    case MT_DEV_SECTION:
        if (!r->enc.have_section)
            rc = mt_swenc_section(&r->enc, ev->span, ev->fmt, ev->rate, ev->cycle);
        break;
    case MT_DEV_MARKER: rc = mt_swenc_marker(&r->enc, (uint32_t)ev->value); break;
    case MT_DEV_OVERFLOW: rc = mt_swenc_overflow(&r->enc, (uint32_t)ev->count); break;
    case MT_DEV_END: rc = mt_swenc_end(&r->enc); break;
    case MT_DEV_LOSS: fail(r, ev->offset, ev->what); return;
    case MT_DEV_SYNC: break;
    }
    if (rc != 0)
        fail(r, ev->offset, "a record out of order");
}

void mt_runs_reader_init(mt_runs_reader *r, uint32_t sync_period)
{
    memset(r, 0, sizeof *r);
    mt_dec_init(&r->dec, on_event, r);
    r->dec.runs = 1;
    mt_swenc_init(&r->enc, sync_period, sink, r);
}

void mt_runs_reader_free(mt_runs_reader *r)
{
    free(r->out);
    r->out = NULL;
    r->out_cap = r->out_len = r->out_pos = 0;
}

int mt_runs_reader_feed(mt_runs_reader *r, const uint8_t *p, size_t n)
{
    if (r->out_pos == r->out_len)
        r->out_pos = r->out_len = 0;
    if (!r->failed)
        mt_dec_feed(&r->dec, p, n);
    return r->failed ? -1 : 0;
}

size_t mt_runs_reader_take(mt_runs_reader *r, uint8_t *buf, size_t cap)
{
    size_t k = r->out_len - r->out_pos;
    if (k > cap)
        k = cap;
    if (k == 0) /* nothing rebuilt yet: r->out may still be NULL, which memcpy may not be given */
        return 0;
    memcpy(buf, r->out + r->out_pos, k);
    r->out_pos += k;
    return k;
}

/* The value of "key=" on a line of info, or NULL; *len its length. */
static const char *info_get(const char *info, const char *key, size_t *len)
{
    const size_t kl = strlen(key);
    for (const char *l = info; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (!strncmp(l, key, kl) && l[kl] == '=') {
            const char *v = l + kl + 1, *e = strchr(v, '\n');
            *len = e ? (size_t)(e - v) : strlen(v);
            return v;
        }
    }
    return NULL;
}

int mt_runs_from_info(const char *info, uint32_t *sync_period, char *err, size_t errlen)
{
    size_t n;
    const char *m = info_get(info, "trace.mode", &n);
    if (!m || n != strlen(MT_RUNS_MODE) || strncmp(m, MT_RUNS_MODE, n))
        return 0;
    const char *v = info_get(info, "trace.runs_format", &n);
    if (!v || n != 1 || *v != '0' + MT_RUNS_VERSION) {
        snprintf(err, errlen, "runs stream format '%.*s' is not one this library knows (%u)",
                 v ? (int)(n > 32 ? 32 : n) : 6, v ? v : "absent", MT_RUNS_VERSION);
        return -1;
    }
    const char *sp = info_get(info, "trace.all_sync_period", &n);
    char b[16];
    unsigned long x = 0;
    char *end = NULL;
    if (sp && n && n < sizeof b) {
        memcpy(b, sp, n);
        b[n] = 0;
        x = strtoul(b, &end, 10);
    }
    if (!sp || !end || *end || x > UINT32_MAX) { /* (mt_swenc_init clamps it as the writer did) */
        snprintf(err, errlen, "runs stream without a valid trace.all_sync_period in its header");
        return -1;
    }
    *sync_period = (uint32_t)x;
    return 1;
}
