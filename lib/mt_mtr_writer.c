/* The .mtr writer: cuts the packet stream into zstd frames at SYNCs, indexes them (from the
 * producer's marks or by decoding), and ends the file with the index and the footer. See mt_mtr.h
 * and docs/trace-format.md section 4. */
#include "mt_mtr.h"

#include <errno.h>
#include <time.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "mt_crc32c.h"
#include "mt_dec.h"
#include "mt_le.h"
#include "mt_mtr_header.h"
#include "mt_mtr_index.h"
#include "mt_outfile.h"

struct mt_writer {
    mt_outfile out; /* written as PATH.partial, renamed to PATH by a successful close */
    FILE *f;        /* out.f */
    char *path;
    int failed;
    char err[256];
    ZSTD_CCtx *cctx;
    int level;
    size_t frame_bytes;
    uint8_t *buf; /* stream bytes not yet in a frame; buf[0] is a SYNC's first byte (or the stream start) */
    size_t n, cap;
    size_t scan; /* bytes of buf already scanned for SYNC signatures */
    unsigned zrun;
    uint64_t stream_off; /* stream offset of buf[0] */
    uint64_t file_off;
    mt_frame_index *idx;
    size_t nidx, capidx;
    mt_swenc sw;
    int used_sw;
    uint8_t *zbuf;
    size_t zcap;
    mt_unit_mark *marks; /* producer marks not yet behind the current frame start, in offset order */
    size_t nmarks, capmarks;
    uint64_t marked_frames;
    /* The tail (bounded loss on kill): every tail_ms of host time the stream up to its last SYNC
     * is written as a zstd frame where the next frame will go, without moving file_off; the next
     * frame (or the index) overwrites it, so the finished file is the same bytes as without. */
    int tail_ms;           /* 0: no tail (an output that is not a regular file) */
    uint64_t last_flush_ms; /* host time of the last frame or tail written */
    size_t last_sync;      /* offset in buf of the last SYNC seen (0: buf's start) */
    size_t tail_upto;      /* bytes of buf in the tail on the disk */
    uint64_t tail_end;     /* file offset where that tail ends (0: none) */
    uint64_t tails;        /* tails written (tests) */
    char *trailer;         /* mt_writer_trailer's text (NULL: no trailer) */
};

static void wfail(mt_writer *w, const char *fmt, ...)
{
    if (w->failed)
        return;
    w->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof w->err, fmt, ap);
    va_end(ap);
}

static void wwrite(mt_writer *w, const void *p, size_t n)
{
    if (w->failed)
        return;
    if (fwrite(p, 1, n, w->f) != n)
        wfail(w, "%s: write failed: %s", w->path, strerror(errno));
    w->file_off += n;
}

static void skippable(mt_writer *w, uint32_t magic, const uint8_t *payload, size_t n)
{
    uint8_t h[8];
    mt_put_u32(h, magic);
    mt_put_u32(h + 4, (uint32_t)n);
    wwrite(w, h, 8);
    wwrite(w, payload, n);
}

typedef struct {
    mt_frame_index *e;
    int have_cycle;
} frame_stats;

static void stats_cb(void *ctx, const mt_dec_event *ev)
{
    frame_stats *s = ctx;
    if (ev->type == MT_DEV_SYNC && !s->have_cycle) {
        s->e->first_cycle = ev->cycle;
        s->have_cycle = 1;
    } else if (ev->type == MT_DEV_SAMPLE) {
        s->e->samples++;
        s->e->last_cycle = ev->cycle;
    }
}

/* The index entry of the frame [stream_off, stream_off + len) from the producer's marks at its
 * two ends; 0 when there are not both (then the frame is decoded). Drops the marks before the
 * frame's end: the end mark starts the next frame. */
static int entry_from_marks(mt_writer *w, size_t len, mt_frame_index *e)
{
    uint64_t lo = w->stream_off, hi = w->stream_off + len;
    const mt_unit_mark *start = NULL, *end = NULL;
    size_t k = 0;
    for (; k < w->nmarks && w->marks[k].offset <= hi; k++) {
        if (w->marks[k].offset == lo)
            start = &w->marks[k];
        if (w->marks[k].offset == hi)
            end = &w->marks[k];
    }
    int ok = start && end && end->samples >= start->samples;
    if (ok) {
        e->first_cycle = start->cycle;
        e->samples = end->samples - start->samples;
        e->last_cycle = e->samples ? end->last_sp : 0;
    }
    if (end)
        k--; /* keep it */
    if (k) {
        memmove(w->marks, w->marks + k, (w->nmarks - k) * sizeof *w->marks);
        w->nmarks -= k;
    }
    return ok;
}

void mt_writer_mark(void *ctx, const mt_unit_mark *m)
{
    mt_writer *w = ctx;
    if (w->failed || m->offset < w->stream_off ||
        (w->nmarks && m->offset <= w->marks[w->nmarks - 1].offset))
        return; /* behind the frame being filled, or out of order: that frame gets decoded */
    if (w->nmarks == w->capmarks) {
        size_t nc = w->capmarks * 2 + 64;
        mt_unit_mark *nm = realloc(w->marks, nc * sizeof *nm);
        if (!nm)
            return; /* without marks the frames are decoded: same file */
        w->marks = nm;
        w->capmarks = nc;
    }
    w->marks[w->nmarks++] = *m;
}

uint64_t mt_writer_marked_frames(const mt_writer *w)
{
    return w->marked_frames;
}

static uint64_t host_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* buf[0..len) compressed into zbuf as one frame: its size, 0 after a failure. */
static size_t compress_buf(mt_writer *w, size_t len)
{
    size_t bound = ZSTD_compressBound(len);
    if (bound > w->zcap) {
        free(w->zbuf);
        w->zbuf = malloc(bound);
        w->zcap = w->zbuf ? bound : 0;
        if (!w->zbuf) {
            wfail(w, "%s: out of memory", w->path);
            return 0;
        }
    }
    /* ZSTD_compress2, not ZSTD_compressCCtx: the simple call ignores the parameters set on the
     * context, and so wrote frames without their checksum */
    size_t z = ZSTD_compress2(w->cctx, w->zbuf, w->zcap, w->buf, len);
    if (ZSTD_isError(z)) {
        wfail(w, "%s: zstd: %s", w->path, ZSTD_getErrorName(z));
        return 0;
    }
    return z;
}

/* Removes the tail from the file before what replaces it is written: a kill in between loses
 * the tail's content (at most tail_ms of it), never leaves a half-overwritten frame. */
static void drop_tail(mt_writer *w)
{
    if (!w->tail_end || w->failed)
        return;
    if (fflush(w->f) != 0 || ftruncate(fileno(w->f), (off_t)w->file_off) != 0)
        wfail(w, "%s: write failed: %s", w->path, strerror(errno));
    w->tail_end = 0;
    w->tail_upto = 0;
}

/* The stream up to its last SYNC, as a frame at file_off (see tail_ms). */
static void write_tail(mt_writer *w, uint64_t now)
{
    size_t len = w->last_sync;
    w->last_flush_ms = now;
    if (w->failed || len <= w->tail_upto)
        return;
    size_t z = compress_buf(w, len);
    if (!z)
        return;
    if (fflush(w->f) != 0 || pwrite(fileno(w->f), w->zbuf, z, (off_t)w->file_off) != (ssize_t)z ||
        (w->tail_end > w->file_off + z && ftruncate(fileno(w->f), (off_t)(w->file_off + z)) != 0)) {
        wfail(w, "%s: write failed: %s", w->path, strerror(errno ? errno : EIO));
        return;
    }
    w->tail_end = w->file_off + z;
    w->tail_upto = len;
    w->tails++;
}

void mt_writer_poll(mt_writer *w)
{
    if (!w->tail_ms || w->last_sync <= w->tail_upto)
        return;
    uint64_t now = host_ms();
    if (now - w->last_flush_ms >= (uint64_t)w->tail_ms)
        write_tail(w, now);
}

uint64_t mt_writer_tails(const mt_writer *w)
{
    return w->tails;
}

/* Compresses buf[0..len) as one frame and removes it from buf. */
static void emit_frame(mt_writer *w, size_t len)
{
    if (!len || w->failed)
        return;
    size_t z = compress_buf(w, len);
    if (!z)
        return;
    if (w->nidx == w->capidx) {
        w->capidx = w->capidx * 2 + 16;
        mt_frame_index *ni = realloc(w->idx, w->capidx * sizeof *ni);
        if (!ni) {
            wfail(w, "%s: out of memory", w->path);
            return;
        }
        w->idx = ni;
    }
    mt_frame_index *e = &w->idx[w->nidx++];
    memset(e, 0, sizeof *e);
    e->file_offset = w->file_off;
    e->comp_size = z;
    e->stream_offset = w->stream_off;
    e->stream_bytes = len;
    if (entry_from_marks(w, len, e)) {
        w->marked_frames++;
    } else {
        frame_stats st = {.e = e};
        mt_dec d;
        mt_dec_init(&d, stats_cb, &st);
        mt_dec_feed(&d, w->buf, len);
    }
    drop_tail(w);
    wwrite(w, w->zbuf, z);
    if (!w->failed && fflush(w->f) != 0)
        wfail(w, "%s: write failed: %s", w->path, strerror(errno));
    memmove(w->buf, w->buf + len, w->n - len);
    w->n -= len;
    w->scan -= len;
    w->stream_off += len;
    w->last_sync = w->last_sync > len ? w->last_sync - len : 0;
    if (w->tail_ms)
        w->last_flush_ms = host_ms();
}

mt_writer *mt_writer_create(const char *path, const mt_writer_config *cfg, char *err, size_t errlen)
{
    mt_writer_config c = {0};
    if (cfg)
        c = *cfg;
    mt_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(w);
        return NULL;
    }
    w->level = c.level ? c.level : 3;
    w->frame_bytes = c.frame_bytes ? c.frame_bytes : (size_t)1 << 20;
    if (w->frame_bytes > MT_MTR_FRAME_MAX / 2) /* readers refuse frames beyond MT_MTR_FRAME_MAX */
        w->frame_bytes = MT_MTR_FRAME_MAX / 2;
    w->cctx = ZSTD_createCCtx();
    if (!w->cctx || mt_outfile_open(&w->out, path, "wb", 0, err, errlen) < 0) {
        if (!w->cctx)
            snprintf(err, errlen, "%s: cannot create: zstd context", path);
        ZSTD_freeCCtx(w->cctx);
        free(w->path);
        free(w);
        return NULL;
    }
    w->f = w->out.f;
    /* a tail needs a file to rewrite: not a device or a FIFO */
    w->tail_ms = !w->out.tmp || c.tail_ms < 0 ? 0 : c.tail_ms ? c.tail_ms : 1000;
    w->last_flush_ms = w->tail_ms ? host_ms() : 0;
    /* every frame with its content size (ZSTD_compress2 knows it) and a checksum of it, so that a
     * damaged frame is skipped and counted instead of decoding into wrong samples */
    ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, w->level);
    ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1);
    /* header */
    size_t hn = 0;
    uint8_t *payload = mt_mtr_header_encode(&c, &hn);
    if (payload) {
        skippable(w, MT_MTR_MAGIC_HDR, payload, hn);
        free(payload);
    } else {
        wfail(w, "%s: out of memory", path);
    }
    mt_swenc_init(&w->sw, c.sync_period, mt_writer_sink, w);
    mt_swenc_on_sync(&w->sw, mt_writer_mark, w); /* its frames are indexed without decoding */
    /* Batches cut the same frames as packets do while the buffer cannot reach the cut of a stream
     * without SYNCs (MT_MTR_FRAME_MAX / 2; a batch moves where that cut falls): it holds at most a
     * frame, a SYNC period and a batch or two. */
    if (w->frame_bytes + MT_SYNC_PERIOD_MAX + 2 * sizeof w->sw.batch + 4 * MT_PKT_MAX < MT_MTR_FRAME_MAX / 2)
        mt_swenc_batch(&w->sw);
    if (!w->failed && fflush(w->f) != 0) /* a writer killed before its first frame leaves a header */
        wfail(w, "%s: write failed: %s", path, strerror(errno));
    if (w->failed) {
        snprintf(err, errlen, "%s", w->err);
        mt_writer_abort(w);
        return NULL;
    }
    return w;
}

/* A SYNC signature ends at buf[q] (0x80 after MT_SYNC_ZEROS zeros): the frame is cut at its start
 * once the frame is big enough.  w->scan is q + 1 here (emit_frame moves it with the bytes). */
static void sync_at(mt_writer *w, size_t q)
{
    const size_t start = q + 1 - MT_SYNC_LEN_SIG;
    w->last_sync = start;
    if (start >= w->frame_bytes)
        emit_frame(w, start);
}

/* Cuts frames at the SYNC signatures in buf[scan, n): at every 0x80 with MT_SYNC_ZEROS or more
 * zeros just before it (zrun carries the zeros at the end of the bytes scanned before), in order,
 * as a byte-by-byte scan would.  Why not memchr from one 0x80 to the next (as before): a samples
 * stream has a 0x80 every few bytes (a SAMPLE header), a call each.  Instead the bytes are read
 * MT_SYNC_ZEROS apart: a signature's MT_SYNC_ZEROS zeros cover one of any MT_SYNC_ZEROS positions
 * in a row, so only at a zero read so is its run of zeros looked at (its ends found byte by byte;
 * the byte after it is the candidate 0x80).  p is just past a byte known not to be zero, so no
 * run found after p reaches before it.  docs/trace-unit.md "Finding the SYNCs" has the argument. */
static void scan_syncs(mt_writer *w)
{
    size_t p = w->scan;
    while (p < w->n && w->buf[p] == 0) /* the zeros that extend the run carried in */
        p++;
    if (p == w->n) {
        w->zrun += (unsigned)(p - w->scan);
        w->scan = p;
        return;
    }
    const size_t z0 = w->zrun + (p - w->scan);
    w->zrun = 0;
    w->scan = p + 1;
    if (w->buf[p] == 0x80 && z0 >= MT_SYNC_ZEROS)
        sync_at(w, p);
    p = w->scan;
    for (size_t i = p + MT_SYNC_ZEROS - 1; i < w->n;) {
        const uint8_t *const b = w->buf;
        if (b[i]) {
            i += MT_SYNC_ZEROS;
            continue;
        }
        size_t lo = i, hi = i + 1; /* the run of zeros through i: [lo, hi) */
        while (lo > p && b[lo - 1] == 0)
            lo--;
        while (hi < w->n && b[hi] == 0)
            hi++;
        if (hi == w->n)
            break; /* it runs to the end: counted below */
        if (b[hi] == 0x80 && hi - lo >= MT_SYNC_ZEROS) {
            w->scan = hi + 1;
            sync_at(w, hi);
            p = w->scan; /* (emit_frame moved the bytes and w->scan with them) */
        } else {
            p = hi + 1;
        }
        i = p + MT_SYNC_ZEROS - 1;
    }
    size_t t = w->n; /* the zeros at the end (after the byte before p, which is not zero) */
    while (t > p && w->buf[t - 1] == 0)
        t--;
    w->zrun = (unsigned)(w->n - t);
    w->scan = w->n;
}

int mt_writer_raw(mt_writer *w, const uint8_t *p, size_t n)
{
    if (w->failed)
        return -1;
    if (w->n + n > w->cap) {
        size_t nc = (w->n + n) * 2 + 4096;
        uint8_t *nb = realloc(w->buf, nc);
        if (!nb) {
            wfail(w, "%s: out of memory", w->path);
            return -1;
        }
        w->buf = nb;
        w->cap = nc;
    }
    memcpy(w->buf + w->n, p, n);
    w->n += n;
    scan_syncs(w);
    /* a stream without SYNCs (not from the unit or mt_swenc) must still be written in bounded
     * frames; such a frame does not start at a SYNC and decodes from its first SYNC on */
    if (w->n >= MT_MTR_FRAME_MAX / 2)
        emit_frame(w, w->n);
    mt_writer_poll(w);
    return w->failed ? -1 : 0;
}

void mt_writer_sink(void *ctx, const uint8_t *p, size_t n)
{
    mt_writer_raw(ctx, p, n);
}

static int sw_result(mt_writer *w, int r, const char *what)
{
    w->used_sw = 1;
    if (r < 0 && !w->failed)
        wfail(w, "%s: invalid %s (out of order or out of range)", w->path, what);
    return w->failed ? -1 : 0;
}

int mt_writer_section(mt_writer *w, unsigned span, unsigned fmt, uint32_t rate, uint64_t cycle)
{
    return sw_result(w, mt_swenc_section(&w->sw, span, fmt, rate, cycle), "section");
}

int mt_writer_sample(mt_writer *w, uint64_t cycle, uint64_t addr, unsigned rw)
{
    return sw_result(w, mt_swenc_sample(&w->sw, cycle, addr, rw), "sample");
}

int mt_writer_samples(mt_writer *w, const mt_access_rec *r, size_t n)
{
    return sw_result(w, mt_swenc_samples(&w->sw, r, n), "sample");
}

void mt_writer_runs(mt_writer *w)
{
    mt_swenc_runs(&w->sw);
}

int mt_writer_marker(mt_writer *w, uint32_t value)
{
    return sw_result(w, mt_swenc_marker(&w->sw, value), "marker");
}

int mt_writer_overflow(mt_writer *w, uint32_t dropped)
{
    return sw_result(w, mt_swenc_overflow(&w->sw, dropped), "overflow");
}

const char *mt_writer_error(const mt_writer *w)
{
    return w->failed ? w->err : "";
}

uint64_t mt_writer_file_bytes(const mt_writer *w)
{
    return w->file_off;
}

static void writer_free(mt_writer *w)
{
    ZSTD_freeCCtx(w->cctx);
    free(w->buf);
    free(w->zbuf);
    free(w->idx);
    free(w->marks);
    free(w->path);
    free(w->trailer);
    free(w);
}

int mt_writer_trailer(mt_writer *w, const char *info)
{
    size_t n = strlen(info);
    if (n >= MT_MTR_TRAILER_MAX)
        return -1;
    char *t = malloc(n + 1);
    if (!t) {
        wfail(w, "%s: out of memory", w->path);
        return -1;
    }
    memcpy(t, info, n + 1);
    free(w->trailer);
    w->trailer = t;
    return 0;
}

/* "MTRTRL01", u32 length, the text, u32 CRC-32C of every byte before it. */
static void write_trailer(mt_writer *w)
{
    size_t n = strlen(w->trailer), len = 12 + n;
    uint8_t *p = malloc(len + 4);
    if (!p) {
        wfail(w, "%s: out of memory", w->path);
        return;
    }
    memcpy(p, "MTRTRL01", 8);
    mt_put_u32(p + 8, (uint32_t)n);
    memcpy(p + 12, w->trailer, n);
    mt_put_u32(p + len, mt_crc32c(p, len));
    skippable(w, MT_MTR_MAGIC_TRL, p, len + 4);
    free(p);
}

void mt_writer_abort(mt_writer *w)
{
    if (!w)
        return;
    mt_outfile_discard(&w->out); /* closes it if still open, removes PATH.partial */
    writer_free(w);
}

int mt_writer_finish(mt_writer *w, char *err, size_t errlen)
{
    if (w->used_sw) {
        if (!w->sw.ended)
            mt_swenc_end(&w->sw);
        mt_unit_mark end;
        mt_swenc_mark_now(&w->sw, &end);
        mt_writer_mark(w, &end);
    }
    emit_frame(w, w->n);
    drop_tail(w); /* (a stream that ended exactly at a frame: the index goes where the tail was) */
    if (w->trailer)
        write_trailer(w);
    uint64_t idx_off = w->file_off;
    size_t plen = 0;
    uint8_t *pl = mt_mtr_index_encode(w->idx, w->nidx, &plen);
    if (!pl) {
        wfail(w, "%s: out of memory", w->path);
    } else {
        skippable(w, MT_MTR_MAGIC_IDX, pl, plen);
        free(pl);
    }
    uint8_t foot[MT_MTR_FOOT_PAYLOAD];
    mt_mtr_footer_encode(foot, idx_off);
    skippable(w, MT_MTR_MAGIC_FOOT, foot, sizeof foot);
    char oe[300];
    w->f = NULL;
    if (!w->failed && mt_outfile_commit(&w->out, oe, sizeof oe) < 0) /* closed, renamed to PATH */
        wfail(w, "%s", oe);
    if (w->failed) {
        snprintf(err, errlen, "%s", w->err);
        mt_writer_abort(w);
        return -1;
    }
    writer_free(w);
    return 0;
}

int mt_writer_close(mt_writer *w)
{
    char err[300];
    int rc = mt_writer_finish(w, err, sizeof err);
    if (rc)
        fprintf(stderr, "%s\n", err);
    return rc;
}
