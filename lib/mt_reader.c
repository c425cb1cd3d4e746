/* The chunked sample reader of mt_reader.h: mt_file (container) -> mt_dec (packets) -> records. */
#include "mt_reader.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_dec.h"
#include "mt_mtr.h"
#include "mt_version.h"

/* Compressed frames are decoded into this much stream at a time: a RUN packet expands to at most
 * MT_RUN_MAX samples, so the queue of decoded-but-not-returned samples stays small. */
#define READ_CHUNK 4096

struct mt_reader {
    char *path;
    mt_file *f;
    mt_dec dec;
    mt_sample_rec *queue; /* decoded, not yet returned: [head, n) */
    size_t head, n, cap;
    int ended, failed, oom;
    char loss[256]; /* the first loss since the last check (strict mode reports it) */
    mt_reader_stats st;
    char err[512];
    uint8_t buf[READ_CHUNK];
};

const char *mt_version(void)
{
    return MT_VERSION_STRING;
}

static void fail(mt_reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = snprintf(r->err, sizeof r->err, "%s: ", r->path);
    if (n > 0 && (size_t)n < sizeof r->err)
        vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
    va_end(ap);
    r->failed = 1;
}

static void on_event(void *ctx, const mt_dec_event *ev)
{
    mt_reader *r = ctx;
    switch (ev->type) {
    case MT_DEV_SAMPLE: {
        if (r->n == r->cap) {
            if (r->head > 0) { /* slide the unreturned part down before growing */
                memmove(r->queue, r->queue + r->head, (r->n - r->head) * sizeof *r->queue);
                r->n -= r->head;
                r->head = 0;
            }
            if (r->n == r->cap) {
                size_t cap = r->cap ? r->cap * 2 : 1024;
                mt_sample_rec *q = realloc(r->queue, cap * sizeof *q);
                if (!q) {
                    r->oom = 1;
                    return;
                }
                r->queue = q;
                r->cap = cap;
            }
        }
        mt_sample_rec *s = &r->queue[r->n++];
        memset(s, 0, sizeof *s);
        s->cycle = ev->cycle;
        s->address = mt_fmt_part_to_addr(ev->fmt, ev->addr);
        /* as `metatrace decode` prints it: the seed's word with its R/W bit for 48/32, the line
         * number or the address (the part alone, R/W in `write`) for line and full */
        s->value = ev->fmt == MT_FMT_48 || ev->fmt == MT_FMT_32 ? ev->value : ev->addr;
        s->skip = ev->skip;
        s->write = ev->rw ? 1 : 0;
        s->section = ev->span ? 1 : 0;
        s->format = ev->fmt;
        break;
    }
    case MT_DEV_MARKER: r->st.markers++; break;
    case MT_DEV_OVERFLOW: r->st.dropped += ev->count; break;
    case MT_DEV_LOSS:
        r->st.losses++;
        r->st.bytes_lost += ev->count;
        if (!r->loss[0])
            snprintf(r->loss, sizeof r->loss, "stream offset %" PRIu64 ": %s", ev->offset,
                     ev->what ? ev->what : "corrupt packet stream");
        break;
    default: break;
    }
}

mt_reader *mt_reader_open(const char *path, char *err, size_t errlen)
{
    mt_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(r);
        return NULL;
    }
    if (!(r->f = mt_file_open(path, err, errlen))) { /* its message names the path */
        free(r->path);
        free(r);
        return NULL;
    }
    mt_dec_init(&r->dec, on_event, r);
    return r;
}

size_t mt_reader_header(const mt_reader *r, char *buf, size_t cap)
{
    const mt_file_header *h = mt_file_header_get(r->f);
    size_t nidx = 0;
    const mt_frame_index *idx = mt_file_index(r->f, &nidx);
    uint64_t isamples = 0;
    for (size_t i = 0; i < nidx; i++)
        isamples += idx[i].samples;
    size_t len = 0;
    char line[MT_MTR_INFO_MAX + 64];
#define PUT(...)                                                                                    \
    do {                                                                                            \
        int n_ = snprintf(line, sizeof line, __VA_ARGS__);                                          \
        if (n_ > 0) {                                                                               \
            if (cap && len < cap - 1)                                                               \
                memcpy(buf + len, line, (size_t)n_ < cap - 1 - len ? (size_t)n_ : cap - 1 - len);   \
            len += (size_t)n_;                                                                      \
        }                                                                                           \
    } while (0)
    PUT("container=%s\n", h->raw == 1 ? "mtp" : h->raw == 2 ? "zstd" : "mtr");
    if (!h->raw) {
        PUT("ref_hz=%" PRIu64 "\n", h->ref_hz);
        PUT("has_index=%d\n", h->has_index ? 1 : 0);
        PUT("frames=%zu\n", nidx);
        if (h->has_index)
            PUT("index_samples=%" PRIu64 "\n", isamples);
        if (h->has_unit_cfg) {
            const mt_unit_cfg *c = &h->cfg;
            PUT("unit.kind_mask=0x%x\nunit.tap=%u\n", c->kind_mask, c->tap);
            PUT("unit.fmt_h=%s\nunit.fmt_l=%s\n", mt_fmt_name(c->fmt & 3), mt_fmt_name((c->fmt >> 4) & 3));
            PUT("unit.rate_h=%u\nunit.rate_l=%u\n", c->rate_h, c->rate_l);
            PUT("unit.len_h=%" PRIu64 "\nunit.len_l=%" PRIu64 "\n", c->len_h, c->len_l);
            PUT("unit.sync_period=%u\nunit.fifo_depth=%u\nunit.fifo_drain=%u\n", c->sync_period,
                h->fifo_depth, h->fifo_drain);
        }
        /* the producer's lines are already "key=value"; blank ones are left out */
        for (const char *p = h->info; *p;) {
            const char *nl = strchr(p, '\n');
            int n = nl ? (int)(nl - p) : (int)strlen(p);
            if (n)
                PUT("%.*s\n", n, p);
            p += n + (nl != NULL);
        }
    }
#undef PUT
    if (cap)
        buf[len < cap ? len : cap - 1] = '\0';
    return len;
}

long mt_reader_next(mt_reader *r, mt_sample_rec *out, size_t cap, int strict)
{
    if (r->failed)
        return -1;
    size_t got = 0;
    while (got < cap) {
        if (strict && r->loss[0]) {
            fail(r, "%s", r->loss);
            return -1;
        }
        if (r->oom) {
            fail(r, "out of memory");
            return -1;
        }
        if (r->head < r->n) {
            size_t k = r->n - r->head < cap - got ? r->n - r->head : cap - got;
            memcpy(out + got, r->queue + r->head, k * sizeof *out);
            for (size_t i = 0; i < k; i++)
                r->st.writes += out[got + i].write;
            r->st.samples += k;
            r->head += k;
            got += k;
            continue;
        }
        r->head = r->n = 0;
        if (r->ended)
            break;
        ssize_t n = mt_file_read(r->f, r->buf, sizeof r->buf);
        if (n < 0) {
            const char *e = mt_file_error(r->f);
            if (!e || !*e)
                e = "read error";
            if (strstr(e, r->path)) /* mt_file's messages name the path already */
                snprintf(r->err, sizeof r->err, "%s", e);
            else
                fail(r, "%s", e);
            r->failed = 1;
            return -1;
        }
        if (n == 0) {
            mt_dec_finish(&r->dec);
            r->ended = 1;
        } else {
            mt_dec_feed(&r->dec, r->buf, (size_t)n);
        }
    }
    r->st.bad_frames = mt_file_bad_frames(r->f);
    r->st.truncated = mt_file_truncated(r->f) ? 1 : 0;
    return (long)got;
}

void mt_reader_get_stats(const mt_reader *r, mt_reader_stats *st)
{
    *st = r->st;
}

const char *mt_reader_error(const mt_reader *r)
{
    return r->err;
}

int mt_reader_rewind(mt_reader *r)
{
    if (mt_file_rewind(r->f) != 0) {
        fail(r, "cannot rewind: %s", mt_file_error(r->f));
        return -1;
    }
    mt_dec_init(&r->dec, on_event, r);
    r->head = r->n = 0;
    r->ended = r->failed = r->oom = 0;
    r->loss[0] = r->err[0] = '\0';
    memset(&r->st, 0, sizeof r->st);
    return 0;
}

void mt_reader_close(mt_reader *r)
{
    if (!r)
        return;
    mt_file_close(r->f);
    free(r->queue);
    free(r->path);
    free(r);
}
