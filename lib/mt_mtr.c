/* The .mtr container: see mt_mtr.h and docs/trace-format.md section 4. */
#include "mt_mtr.h"
#include "mt_paths.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "mt_dec.h"

#define HDR_FIXED 72
#define IDX_ENTRY_WORDS 7
#define FOOT_PAYLOAD 16

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const uint8_t *p)
{
    return get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

/* ---- writer ------------------------------------------------------------------------- */

struct mt_writer {
    FILE *f;
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
    put_u32(h, magic);
    put_u32(h + 4, (uint32_t)n);
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

/* Compresses buf[0..len) as one frame and removes it from buf. */
static void emit_frame(mt_writer *w, size_t len)
{
    if (!len || w->failed)
        return;
    size_t bound = ZSTD_compressBound(len);
    if (bound > w->zcap) {
        free(w->zbuf);
        w->zbuf = malloc(bound);
        w->zcap = w->zbuf ? bound : 0;
        if (!w->zbuf) {
            wfail(w, "%s: out of memory", w->path);
            return;
        }
    }
    /* ZSTD_compress2, not ZSTD_compressCCtx: the simple call ignores the parameters set on the
     * context, and so wrote frames without their checksum */
    size_t z = ZSTD_compress2(w->cctx, w->zbuf, w->zcap, w->buf, len);
    if (ZSTD_isError(z)) {
        wfail(w, "%s: zstd: %s", w->path, ZSTD_getErrorName(z));
        return;
    }
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
    wwrite(w, w->zbuf, z);
    if (!w->failed && fflush(w->f) != 0)
        wfail(w, "%s: write failed: %s", w->path, strerror(errno));
    memmove(w->buf, w->buf + len, w->n - len);
    w->n -= len;
    w->scan -= len;
    w->stream_off += len;
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
    w->f = fopen(path, "wb");
    if (!w->f || !w->cctx) {
        snprintf(err, errlen, "%s: cannot create: %s", path, w->f ? "zstd context" : strerror(errno));
        if (w->f)
            fclose(w->f);
        ZSTD_freeCCtx(w->cctx);
        free(w->path);
        free(w);
        return NULL;
    }
    /* every frame with its content size (ZSTD_compress2 knows it) and a checksum of it, so that a
     * damaged frame is skipped and counted instead of decoding into wrong samples */
    ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_compressionLevel, w->level);
    ZSTD_CCtx_setParameter(w->cctx, ZSTD_c_checksumFlag, 1);
    /* header */
    char info[MT_MTR_INFO_MAX];
    int il = snprintf(info, sizeof info, "producer=%s\n%s", c.producer ? c.producer : "libmetatrace",
                      c.info ? c.info : "");
    if (il < 0 || (size_t)il >= sizeof info)
        il = (int)sizeof info - 1;
    uint8_t h[HDR_FIXED];
    memset(h, 0, sizeof h);
    memcpy(h, "MTRHDR01", 8);
    put_u64(h + 8, c.ref_hz ? c.ref_hz : 1000000000ull);
    put_u32(h + 16, c.unit_cfg ? 1 : 0);
    if (c.unit_cfg) {
        const mt_unit_cfg *u = c.unit_cfg;
        put_u32(h + 20, u->kind_mask);
        put_u32(h + 24, u->tap);
        put_u32(h + 28, u->fmt);
        put_u32(h + 32, u->sync_period);
        put_u32(h + 36, u->rate_h);
        put_u32(h + 40, u->rate_l);
        put_u64(h + 44, u->len_h);
        put_u64(h + 52, u->len_l);
        put_u32(h + 60, c.fifo_depth);
        put_u32(h + 64, c.fifo_drain);
    }
    put_u32(h + 68, (uint32_t)il);
    uint8_t *payload = malloc(HDR_FIXED + (size_t)il);
    if (payload) {
        memcpy(payload, h, HDR_FIXED);
        memcpy(payload + HDR_FIXED, info, (size_t)il);
        skippable(w, MT_MTR_MAGIC_HDR, payload, HDR_FIXED + (size_t)il);
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
    /* cut frames at SYNCs once a frame is big enough: from one 0x80 to the next (memchr), zrun
     * counting the zeros just before each, as a byte-by-byte scan would */
    while (w->scan < w->n) {
        const uint8_t *b = w->buf + w->scan;
        size_t left = w->n - w->scan;
        const uint8_t *hit = memchr(b, 0x80, left);
        size_t len = hit ? (size_t)(hit - b) : left, z = 0;
        while (z < len && b[len - 1 - z] == 0)
            z++;
        w->zrun = z == len ? w->zrun + (unsigned)z : (unsigned)z;
        w->scan += len;
        if (!hit)
            break;
        w->scan++;
        if (w->zrun >= MT_SYNC_ZEROS) {
            w->zrun = 0;
            size_t start = w->scan - MT_SYNC_LEN_SIG;
            if (start >= w->frame_bytes)
                emit_frame(w, start);
        } else {
            w->zrun = 0;
        }
    }
    /* a stream without SYNCs (not from the unit or mt_swenc) must still be written in bounded
     * frames; such a frame does not start at a SYNC and decodes from its first SYNC on */
    if (w->n >= MT_MTR_FRAME_MAX / 2)
        emit_frame(w, w->n);
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

static void writer_free(mt_writer *w)
{
    ZSTD_freeCCtx(w->cctx);
    free(w->buf);
    free(w->zbuf);
    free(w->idx);
    free(w->marks);
    free(w->path);
    free(w);
}

void mt_writer_abort(mt_writer *w)
{
    if (!w)
        return;
    if (w->f)
        fclose(w->f);
    mt_remove_partial(w->path);
    writer_free(w);
}

int mt_writer_close(mt_writer *w)
{
    if (w->used_sw) {
        if (!w->sw.ended)
            mt_swenc_end(&w->sw);
        mt_unit_mark end;
        mt_swenc_mark_now(&w->sw, &end);
        mt_writer_mark(w, &end);
    }
    emit_frame(w, w->n);
    uint64_t idx_off = w->file_off;
    size_t plen = 16 + w->nidx * IDX_ENTRY_WORDS * 8;
    uint8_t *pl = malloc(plen);
    if (!pl) {
        wfail(w, "%s: out of memory", w->path);
    } else {
        memcpy(pl, "MTRIDX01", 8);
        put_u64(pl + 8, w->nidx);
        for (size_t i = 0; i < w->nidx; i++) {
            const mt_frame_index *e = &w->idx[i];
            uint64_t v[IDX_ENTRY_WORDS] = {e->file_offset, e->comp_size, e->stream_offset, e->stream_bytes,
                                           e->first_cycle, e->last_cycle, e->samples};
            for (int k = 0; k < IDX_ENTRY_WORDS; k++)
                put_u64(pl + 16 + (i * IDX_ENTRY_WORDS + (size_t)k) * 8, v[k]);
        }
        skippable(w, MT_MTR_MAGIC_IDX, pl, plen);
        free(pl);
    }
    uint8_t foot[FOOT_PAYLOAD];
    put_u64(foot, idx_off);
    memcpy(foot + 8, "MTRFOOT1", 8);
    skippable(w, MT_MTR_MAGIC_FOOT, foot, sizeof foot);
    if (fclose(w->f) != 0)
        wfail(w, "%s: write failed: %s", w->path, strerror(errno));
    w->f = NULL;
    if (w->failed) {
        fprintf(stderr, "%s\n", w->err);
        mt_writer_abort(w);
        return -1;
    }
    writer_free(w);
    return 0;
}

/* ---- reader ------------------------------------------------------------------------- */

struct mt_file {
    FILE *f;
    char *path;
    mt_file_header h;
    uint64_t data_start; /* file offset of the first frame after the header */
    ZSTD_DCtx *dctx;
    uint8_t *in; /* compressed bytes read from the file, in[in_pos..in_len) unused */
    size_t in_pos, in_len, in_cap;
    int eof;
    uint8_t *out;
    size_t out_pos, out_len, out_cap;
    int truncated;
    uint64_t bad_frames;
    mt_frame_index *idx;
    size_t nidx;
    char err[256];
    int ioerr;
    int zs_open; /* plain zstd: a frame is partly decoded */
    uint64_t in_base;   /* file offset of in[0] */
    size_t icur;        /* index cursor: no indexed frame before idx[icur] is still ahead */
    uint64_t stop_cycle; /* mt_file_stop_after: end before a frame that cannot reach back to it */
    int stopped;
};

static void ferr(mt_file *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->err, sizeof f->err, fmt, ap);
    va_end(ap);
}

/* Makes at least `want` unread bytes available in f->in (fewer at end of file). */
static size_t fill(mt_file *f, size_t want)
{
    if (f->in_pos && f->in_len - f->in_pos < want) {
        memmove(f->in, f->in + f->in_pos, f->in_len - f->in_pos);
        f->in_len -= f->in_pos;
        f->in_base += f->in_pos;
        f->in_pos = 0;
    }
    while (f->in_len - f->in_pos < want && !f->eof) {
        if (f->in_len == f->in_cap) {
            size_t nc = f->in_cap ? f->in_cap * 2 : 1 << 20;
            uint8_t *nb = realloc(f->in, nc);
            if (!nb) {
                f->ioerr = 1;
                ferr(f, "%s: out of memory", f->path);
                break;
            }
            f->in = nb;
            f->in_cap = nc;
        }
        size_t r = fread(f->in + f->in_len, 1, f->in_cap - f->in_len, f->f);
        f->in_len += r;
        if (r == 0) {
            if (ferror(f->f)) {
                f->ioerr = 1;
                ferr(f, "%s: read error: %s", f->path, strerror(errno));
            }
            f->eof = 1;
        }
    }
    return f->in_len - f->in_pos;
}

static void parse_index(mt_file *f, const uint8_t *p, size_t n)
{
    if (n < 16 || memcmp(p, "MTRIDX01", 8))
        return;
    uint64_t cnt = get_u64(p + 8);
    if (cnt > (n - 16) / (IDX_ENTRY_WORDS * 8))
        return;
    free(f->idx);
    f->idx = calloc(cnt ? cnt : 1, sizeof *f->idx);
    if (!f->idx)
        return;
    for (uint64_t i = 0; i < cnt; i++) {
        const uint8_t *e = p + 16 + i * IDX_ENTRY_WORDS * 8;
        mt_frame_index *x = &f->idx[i];
        x->file_offset = get_u64(e);
        x->comp_size = get_u64(e + 8);
        x->stream_offset = get_u64(e + 16);
        x->stream_bytes = get_u64(e + 24);
        x->first_cycle = get_u64(e + 32);
        x->last_cycle = get_u64(e + 40);
        x->samples = get_u64(e + 48);
    }
    f->nidx = cnt;
    f->h.has_index = 1;
}

/* Decompresses the next data frame into f->out. Returns 1, 0 at the end, -1 on I/O error. */
static int next_frame(mt_file *f)
{
    for (;;) {
        if (f->stopped)
            return 0;
        size_t avail = fill(f, 8);
        if (f->ioerr)
            return -1;
        if (avail == 0)
            return 0;
        if (avail < 8) {
            f->truncated = 1;
            f->in_pos = f->in_len;
            return 0;
        }
        const uint8_t *p = f->in + f->in_pos;
        uint32_t magic = get_u32(p);
        if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) { /* skippable: header, index, footer */
            uint64_t sz = 8 + (uint64_t)get_u32(p + 4);
            if (fill(f, sz) < sz) {
                f->truncated = 1;
                f->in_pos = f->in_len;
                return 0;
            }
            if (magic == MT_MTR_MAGIC_IDX)
                parse_index(f, f->in + f->in_pos + 8, sz - 8);
            f->in_pos += sz;
            continue;
        }
        if (f->stop_cycle != UINT64_MAX && f->nidx) {
            /* Cycles never decrease along the stream, so once a frame before this one has a
             * sample past the stop cycle nothing here can be at or before it. */
            uint64_t at = f->in_base + f->in_pos;
            while (f->icur < f->nidx && f->idx[f->icur].file_offset < at)
                f->icur++;
            if (f->icur > 0 && f->icur < f->nidx && f->idx[f->icur].file_offset == at &&
                f->idx[f->icur - 1].samples && f->idx[f->icur - 1].last_cycle > f->stop_cycle) {
                f->stopped = 1;
                return 0;
            }
        }
        /* a zstd frame: find its size, reading more until it is all here */
        size_t need = 1 << 16, csz;
        for (;;) {
            avail = fill(f, need);
            csz = ZSTD_findFrameCompressedSize(f->in + f->in_pos, avail);
            if (!ZSTD_isError(csz) || avail < need || f->ioerr)
                break;
            need *= 2;
        }
        if (f->ioerr)
            return -1;
        if (ZSTD_isError(csz)) {
            if (ZSTD_getErrorCode(csz) == ZSTD_error_srcSize_wrong) {
                f->truncated = 1; /* the writer was killed inside this frame */
            } else {
                f->bad_frames++; /* not a frame: nothing after it can be located */
                ferr(f, "%s: unreadable data at a frame boundary (%s)", f->path, ZSTD_getErrorName(csz));
            }
            f->in_pos = f->in_len;
            return 0;
        }
        const uint8_t *fr = f->in + f->in_pos;
        unsigned long long content = ZSTD_getFrameContentSize(fr, csz);
        f->in_pos += csz;
        if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN ||
            content > MT_MTR_FRAME_MAX) {
            f->bad_frames++;
            continue;
        }
        if (content > f->out_cap) {
            free(f->out);
            f->out = malloc(content ? content : 1);
            f->out_cap = f->out ? content : 0;
            if (!f->out) {
                f->ioerr = 1;
                ferr(f, "%s: out of memory", f->path);
                return -1;
            }
        }
        size_t r = ZSTD_decompressDCtx(f->dctx, f->out, f->out_cap, fr, csz);
        if (ZSTD_isError(r)) {
            f->bad_frames++;
            ferr(f, "%s: corrupt frame skipped (%s)", f->path, ZSTD_getErrorName(r));
            continue;
        }
        f->out_pos = 0;
        f->out_len = r;
        if (r)
            return 1;
    }
}

mt_file *mt_file_open(const char *path, char *err, size_t errlen)
{
    mt_file *f = calloc(1, sizeof *f);
    if (!f || !(f->path = strdup(path))) {
        snprintf(err, errlen, "%s: out of memory", path);
        free(f);
        return NULL;
    }
    f->f = fopen(path, "rb");
    f->dctx = ZSTD_createDCtx();
    if (!f->f || !f->dctx) {
        snprintf(err, errlen, "%s: cannot open: %s", path, f->f ? "zstd context" : strerror(errno));
        mt_file_close(f);
        return NULL;
    }
    size_t n = fill(f, HDR_FIXED + 8);
    const uint8_t *p = f->in + f->in_pos;
    static const uint8_t sig[MT_SYNC_LEN_SIG] = {0, 0, 0, 0, 0, 0x80};
    f->h.ref_hz = 1000000000ull;
    f->stop_cycle = UINT64_MAX;
    if (n >= 8 + HDR_FIXED && get_u32(p) == MT_MTR_MAGIC_HDR && !memcmp(p + 8, "MTRHDR01", 8)) {
        uint32_t sz = get_u32(p + 4);
        if (sz < HDR_FIXED || fill(f, 8 + (size_t)sz) < 8 + (size_t)sz) {
            snprintf(err, errlen, "%s: truncated .mtr header", path);
            mt_file_close(f);
            return NULL;
        }
        p = f->in + f->in_pos + 8;
        f->h.ref_hz = get_u64(p + 8);
        f->h.has_unit_cfg = get_u32(p + 16) & 1;
        f->h.cfg.kind_mask = get_u32(p + 20);
        f->h.cfg.tap = get_u32(p + 24);
        f->h.cfg.fmt = get_u32(p + 28);
        f->h.cfg.sync_period = get_u32(p + 32);
        f->h.cfg.rate_h = get_u32(p + 36);
        f->h.cfg.rate_l = get_u32(p + 40);
        f->h.cfg.len_h = get_u64(p + 44);
        f->h.cfg.len_l = get_u64(p + 52);
        f->h.fifo_depth = get_u32(p + 60);
        f->h.fifo_drain = get_u32(p + 64);
        uint32_t il = get_u32(p + 68);
        if (il > sz - HDR_FIXED || il >= MT_MTR_INFO_MAX) {
            snprintf(err, errlen, "%s: corrupt .mtr header (info length %u)", path, il);
            mt_file_close(f);
            return NULL;
        }
        memcpy(f->h.info, p + HDR_FIXED, il);
        f->h.info[il] = 0;
        f->in_pos += 8 + (size_t)sz;
        f->data_start = 8 + (uint64_t)sz;
        /* the index, when the writer finished: footer at the very end */
        if (fseek(f->f, -24, SEEK_END) == 0) {
            uint8_t ft[24];
            if (fread(ft, 1, 24, f->f) == 24 && get_u32(ft) == MT_MTR_MAGIC_FOOT && get_u32(ft + 4) == 16 &&
                !memcmp(ft + 16, "MTRFOOT1", 8)) {
                uint64_t io = get_u64(ft + 8);
                uint8_t ih[8];
                if (fseek(f->f, (long)io, SEEK_SET) == 0 && fread(ih, 1, 8, f->f) == 8 &&
                    get_u32(ih) == MT_MTR_MAGIC_IDX) {
                    size_t isz = get_u32(ih + 4);
                    long fsz = 0;
                    if (fseek(f->f, 0, SEEK_END) == 0)
                        fsz = ftell(f->f);
                    if (io + 8 + isz + 24 > (uint64_t)fsz || fseek(f->f, (long)io + 8, SEEK_SET) != 0)
                        isz = 0; /* an index that does not fit in the file is ignored */
                    uint8_t *ib = isz ? malloc(isz) : NULL;
                    if (ib && fread(ib, 1, isz, f->f) == isz)
                        parse_index(f, ib, isz);
                    free(ib);
                }
            }
        }
        clearerr(f->f);
        if (fseek(f->f, (long)f->in_len, SEEK_SET) != 0) {
            snprintf(err, errlen, "%s: cannot seek", path);
            mt_file_close(f);
            return NULL;
        }
    } else if (n >= 4 && get_u32(p) == 0xFD2FB528u) {
        f->h.raw = 2;
    } else if (n >= MT_SYNC_LEN_SIG && !memcmp(p, sig, MT_SYNC_LEN_SIG)) {
        f->h.raw = 1;
    } else {
        snprintf(err, errlen, "%s: not a metatrace trace (%s)", path,
                 n == 0 ? "empty file" : "neither a .mtr container nor a packet stream starting with a SYNC");
        mt_file_close(f);
        return NULL;
    }
    return f;
}

const mt_file_header *mt_file_header_get(const mt_file *f)
{
    return &f->h;
}

ssize_t mt_file_read(mt_file *f, uint8_t *buf, size_t cap)
{
    if (f->h.raw == 1) {
        size_t avail = fill(f, 1);
        if (f->ioerr)
            return -1;
        size_t k = avail < cap ? avail : cap;
        memcpy(buf, f->in + f->in_pos, k);
        f->in_pos += k;
        return (ssize_t)k;
    }
    if (f->h.raw == 2) { /* plain zstd stream: frames of any size, decoded as a stream */
        for (;;) {
            size_t avail = fill(f, 1);
            if (f->ioerr)
                return -1;
            if (avail == 0) {
                if (f->zs_open)
                    f->truncated = 1;
                return 0;
            }
            ZSTD_inBuffer in = {f->in + f->in_pos, avail, 0};
            ZSTD_outBuffer out = {buf, cap, 0};
            size_t r = ZSTD_decompressStream(f->dctx, &out, &in);
            f->in_pos += in.pos;
            if (ZSTD_isError(r)) {
                f->bad_frames++;
                ferr(f, "%s: corrupt zstd data (%s)", f->path, ZSTD_getErrorName(r));
                f->in_pos = f->in_len;
                f->eof = 1;
                f->zs_open = 0;
                return 0;
            }
            f->zs_open = r != 0;
            if (out.pos)
                return (ssize_t)out.pos;
        }
    }
    if (f->out_pos == f->out_len) {
        int r = next_frame(f);
        if (r <= 0)
            return r;
    }
    size_t k = f->out_len - f->out_pos;
    if (k > cap)
        k = cap;
    memcpy(buf, f->out + f->out_pos, k);
    f->out_pos += k;
    return (ssize_t)k;
}

/* Restarts reading at file offset `at` (a frame boundary). */
static int reposition(mt_file *f, uint64_t at)
{
    if (fseek(f->f, (long)at, SEEK_SET) != 0) {
        ferr(f, "%s: cannot seek: %s", f->path, strerror(errno));
        return -1;
    }
    f->in_base = at;
    f->icur = 0;
    f->stopped = 0;
    f->in_pos = f->in_len = 0;
    f->out_pos = f->out_len = 0;
    f->zs_open = 0;
    ZSTD_DCtx_reset(f->dctx, ZSTD_reset_session_only);
    f->eof = 0;
    f->truncated = 0;
    f->bad_frames = 0;
    return 0;
}

int mt_file_rewind(mt_file *f)
{
    return reposition(f, f->data_start);
}

int mt_file_seek_cycle(mt_file *f, uint64_t cycle)
{
    if (f->h.raw || !f->nidx)
        return reposition(f, f->data_start) ? -1 : 0;
    /* The first frame with a sample at or after `cycle`... */
    size_t k = 0;
    while (k < f->nidx && !(f->idx[k].samples && f->idx[k].last_cycle >= cycle))
        k++;
    /* ...and, from the frame with samples before it, the markers/sections that follow that
     * frame's last sample (their cycle is the next sample point, which may already be >= cycle).
     * Frames without samples in between are kept too: their records' cycles are not indexed. */
    while (k > 0) {
        k--;
        if (f->idx[k].samples)
            break;
    }
    uint64_t at = k < f->nidx ? f->idx[k].file_offset : f->data_start;
    return reposition(f, at) ? -1 : 1;
}

void mt_file_stop_after(mt_file *f, uint64_t cycle)
{
    f->stop_cycle = cycle;
    f->stopped = 0;
}

const mt_frame_index *mt_file_index(const mt_file *f, size_t *n)
{
    *n = f->nidx;
    return f->nidx ? f->idx : NULL;
}

int mt_file_truncated(const mt_file *f)
{
    return f->truncated;
}

uint64_t mt_file_bad_frames(const mt_file *f)
{
    return f->bad_frames;
}

const char *mt_file_error(const mt_file *f)
{
    return f->err;
}

void mt_file_close(mt_file *f)
{
    if (!f)
        return;
    if (f->f)
        fclose(f->f);
    ZSTD_freeDCtx(f->dctx);
    free(f->in);
    free(f->out);
    free(f->idx);
    free(f->path);
    free(f);
}
