/* Bridge between metatrace's records and lib/'s packet stream.
 *
 * Reading (.mtp, a raw packet stream): the file is fed to lib's streaming decoder (mt_dec) in
 * 64 KiB pieces; its events become records in a small queue.  A sample's `value` carries the
 * number of intervals skipped just before it (idle, or dropped as an OVERFLOW says).
 * Writing (.mtp): a software packet writer built from lib's compressor (mt_enc) and packet
 * builders: SYNC + SECTION at the start and after every SYNC_PERIOD bytes, a SECTION whenever
 * the section, format or rate changes, samples with skip prefixes for the intervals without a
 * sample, MARKER/OVERFLOW for those records, END with the totals.  Nothing is dropped (no FIFO).
 * The .mtr container is lib's and not available yet: .mtr names are refused with a message. */
#include "host/mtrio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "mt_dec.h"
#include "mt_enc.h"
#include "mt_pkt.h"

#define SYNC_PERIOD 4096u

static ht_format fmt_from_lib(unsigned f)
{
    switch (f) {
    case MT_FMT_48: return HT_FMT_48;
    case MT_FMT_32: return HT_FMT_32;
    case MT_FMT_LINE: return HT_FMT_LINE;
    default: return HT_FMT_FULL;
    }
}

static unsigned fmt_to_lib(ht_format f)
{
    switch (f) {
    case HT_FMT_48: return MT_FMT_48;
    case HT_FMT_32: return MT_FMT_32;
    case HT_FMT_LINE: return MT_FMT_LINE;
    default: return MT_FMT_FULL;
    }
}

static int is_mtr(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && strcasecmp(path + n - 4, ".mtr") == 0;
}

/* ---------------- reader ---------------- */
typedef struct {
    FILE *f;
    mt_dec dec;
    ht_record *q;
    size_t qhead, qlen, qcap;
    int oom, eof;
    uint8_t buf[1 << 16];
} mtp_state;

static void on_event(void *ctx, const mt_dec_event *ev)
{
    mtp_state *m = ctx;
    ht_record r;
    memset(&r, 0, sizeof r);
    r.cycle = ev->cycle;
    switch (ev->type) {
    case MT_DEV_SAMPLE:
        r.kind = HT_REC_SAMPLE;
        r.format = (uint8_t)fmt_from_lib(ev->fmt);
        r.addr = mt_fmt_part_to_addr(ev->fmt, ev->addr);
        r.write = ev->rw;
        r.section = ev->span ? HT_SEC_SPAN : HT_SEC_BURST;
        r.value = ev->skip;
        break;
    case MT_DEV_SECTION:
        r.kind = HT_REC_SECTION;
        r.format = (uint8_t)fmt_from_lib(ev->fmt);
        r.section = ev->span ? HT_SEC_SPAN : HT_SEC_BURST;
        r.value = ev->rate;
        break;
    case MT_DEV_OVERFLOW: r.kind = HT_REC_OVERFLOW; r.value = ev->count; break;
    case MT_DEV_MARKER: r.kind = HT_REC_MARKER; r.value = ev->value; break;
    case MT_DEV_LOSS: r.kind = HT_REC_LOSS; r.value = ev->count; break;
    default: return; /* SYNC and END carry nothing the analyses need */
    }
    if (m->qhead + m->qlen == m->qcap) {
        if (m->qhead) {
            memmove(m->q, m->q + m->qhead, m->qlen * sizeof *m->q);
            m->qhead = 0;
        } else {
            size_t cap = m->qcap ? m->qcap * 2 : 4096;
            ht_record *q = realloc(m->q, cap * sizeof *q);
            if (!q) {
                m->oom = 1;
                return;
            }
            m->q = q;
            m->qcap = cap;
        }
    }
    m->q[m->qhead + m->qlen++] = r;
}

static int mtp_next(ht_source *s, ht_record *r)
{
    mtp_state *m = s->state;
    while (!m->qlen) {
        if (m->oom) {
            snprintf(s->err, sizeof s->err, "%s: out of memory", s->name);
            return -1;
        }
        if (m->eof)
            return 0;
        size_t n = fread(m->buf, 1, sizeof m->buf, m->f);
        if (n == 0) {
            if (ferror(m->f)) {
                snprintf(s->err, sizeof s->err, "%s: read error", s->name);
                return -1;
            }
            m->eof = 1;
            mt_dec_finish(&m->dec);
        } else {
            mt_dec_feed(&m->dec, m->buf, n);
        }
    }
    *r = m->q[m->qhead++];
    m->qlen--;
    if (!m->qlen)
        m->qhead = 0;
    return 1;
}

static int mtp_rewind(ht_source *s)
{
    mtp_state *m = s->state;
    if (fseek(m->f, 0, SEEK_SET)) {
        snprintf(s->err, sizeof s->err, "%s: cannot rewind", s->name);
        return -1;
    }
    mt_dec_init(&m->dec, on_event, m);
    m->qhead = m->qlen = 0;
    m->eof = m->oom = 0;
    return 0;
}

static void mtp_close(ht_source *s)
{
    mtp_state *m = s->state;
    fclose(m->f);
    free(m->q);
    free(m);
    free(s);
}

ht_source *mtr_open(const char *path, char *err, size_t errlen)
{
    if (is_mtr(path)) {
        snprintf(err, errlen, "%s: the .mtr container is not implemented in lib/ yet "
                 "(use a raw .mtp packet stream or a .csv)", path);
        return NULL;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    ht_source *s = calloc(1, sizeof *s);
    mtp_state *m = calloc(1, sizeof *m);
    if (!s || !m) {
        free(s);
        free(m);
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    m->f = f;
    mt_dec_init(&m->dec, on_event, m);
    s->state = m;
    s->next = mtp_next;
    s->rewind = mtp_rewind;
    s->close = mtp_close;
    snprintf(s->name, sizeof s->name, "%s", path);
    return s;
}

/* ---------------- writer ---------------- */
struct mtr_writer {
    FILE *f;
    char path[512];
    trace_writer_opts o;
    mt_enc enc;
    int have_section, have_sync;
    unsigned span, fmt;
    uint64_t rate, sec_start, rep_idx;
    uint64_t since_sync, last_sync_bytes, samples, shifted;
    uint8_t seq;
    int failed;
    char err[700];
};

static int put(mtr_writer *w, const uint8_t *p, size_t n)
{
    if (fwrite(p, 1, n, w->f) != n) {
        snprintf(w->err, sizeof w->err, "%s: write error: %s", w->path, strerror(errno));
        w->failed = 1;
        return -1;
    }
    w->since_sync += n;
    return 0;
}

static int flush_run(mtr_writer *w)
{
    uint8_t b[MT_PKT_MAX];
    unsigned n = mt_enc_flush_run(&w->enc, b);
    return n ? put(w, b, n) : 0;
}

static int write_section(mtr_writer *w, unsigned span, unsigned fmt, uint64_t rate, uint64_t cycle)
{
    if (flush_run(w))
        return -1;
    uint8_t b[MT_PKT_MAX];
    size_t n = mt_pkt_section(b, span, fmt, (uint32_t)rate, cycle & MT_CYCLE_MASK);
    if (put(w, b, n))
        return -1;
    w->have_section = 1;
    w->span = span;
    w->fmt = fmt;
    w->rate = rate;
    w->sec_start = cycle;
    w->rep_idx = 0;
    mt_enc_reset(&w->enc, fmt);
    return 0;
}

static int write_sync(mtr_writer *w, uint64_t cycle)
{
    if (flush_run(w))
        return -1;
    uint8_t b[MT_PKT_MAX];
    uint32_t prev = !w->have_sync ? 0 : w->since_sync > MT_PREV_BYTES_MAX ? MT_PREV_BYTES_MAX
                                                                          : (uint32_t)w->since_sync;
    size_t n = mt_pkt_sync(b, w->seq++, prev, cycle & MT_CYCLE_MASK);
    w->since_sync = 0;
    w->have_sync = 1;
    if (put(w, b, n))
        return -1;
    /* every SYNC is followed by a SECTION: the pair is the resynchronisation point */
    if (w->have_section)
        return write_section(w, w->span, w->fmt, w->rate, w->sec_start + w->rep_idx * w->rate);
    return 0;
}

mtr_writer *mtr_create(const char *path, const trace_writer_opts *o, char *err, size_t errlen)
{
    if (is_mtr(path)) {
        snprintf(err, errlen, "%s: the .mtr container is not implemented in lib/ yet "
                 "(write a raw .mtp packet stream or a .csv)", path);
        return NULL;
    }
    mtr_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    w->f = fopen(path, "wb");
    if (!w->f) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        free(w);
        return NULL;
    }
    snprintf(w->path, sizeof w->path, "%s", path);
    w->o = *o;
    if (!w->o.rate)
        w->o.rate = 1;
    return w;
}

int mtr_write(mtr_writer *w, const ht_record *r)
{
    if (w->failed)
        return -1;
    uint8_t b[MT_PKT_MAX];
    switch (r->kind) {
    case HT_REC_SECTION:
        if (!w->have_sync && write_sync(w, r->cycle))
            return -1;
        return write_section(w, r->section == HT_SEC_SPAN, fmt_to_lib((ht_format)r->format),
                             r->value ? r->value : 1, r->cycle);
    case HT_REC_MARKER:
        if (!w->have_sync)
            return 0; /* markers before the first sample have no place in a session */
        if (flush_run(w))
            return -1;
        return put(w, b, mt_pkt_marker(b, (uint32_t)r->value));
    case HT_REC_OVERFLOW:
    case HT_REC_LOSS:
        if (!w->have_sync || !r->value)
            return 0;
        if (flush_run(w))
            return -1;
        return put(w, b, mt_pkt_overflow(b, r->value > UINT32_MAX ? UINT32_MAX : (uint32_t)r->value));
    case HT_REC_SAMPLE: break;
    default: return 0;
    }
    unsigned fmt = fmt_to_lib((ht_format)r->format);
    unsigned span = r->section == HT_SEC_SPAN;
    if (!w->have_sync && write_sync(w, r->cycle))
        return -1;
    if (!w->have_section || fmt != w->fmt || span != w->span || r->cycle < w->sec_start) {
        uint64_t rate = w->have_section && span == w->span ? w->rate : w->o.rate;
        if (write_section(w, span, fmt, rate, r->cycle))
            return -1;
    } else if (w->since_sync >= SYNC_PERIOD) {
        if (write_sync(w, r->cycle))
            return -1;
    }
    uint64_t idx = (r->cycle - w->sec_start) / w->rate;
    if ((r->cycle - w->sec_start) % w->rate || idx < w->rep_idx) {
        /* not on a sample point, or a second sample in one interval: the next free interval */
        if (idx < w->rep_idx)
            idx = w->rep_idx;
        else
            idx++;
        w->shifted++;
    }
    uint64_t skip = idx - w->rep_idx;
    if (skip > MT_SKIP_MAX) { /* a very long idle stretch: restart the section there */
        if (write_section(w, span, fmt, w->rate, w->sec_start + idx * w->rate))
            return -1;
        idx = 0;
        skip = 0;
    }
    unsigned n = mt_enc_sample(&w->enc, mt_fmt_addr_part(fmt, r->addr), r->write, skip, b);
    if (n && put(w, b, n))
        return -1;
    w->rep_idx = idx + 1;
    w->samples++;
    return 0;
}

int mtr_finish(mtr_writer *w)
{
    int rc = 0;
    if (!w->failed && w->have_sync) {
        uint8_t b[MT_PKT_MAX];
        if (flush_run(w) || put(w, b, mt_pkt_end(b, w->samples, 0)))
            rc = -1;
    }
    if (w->failed)
        rc = -1;
    if (fclose(w->f) != 0)
        rc = -1;
    if (rc)
        unlink(w->path);
    free(w);
    return rc;
}

void mtr_abort(mtr_writer *w)
{
    if (!w)
        return;
    fclose(w->f);
    unlink(w->path);
    free(w);
}

const char *mtr_writer_error(const mtr_writer *w)
{
    return w->err;
}
