/* The .mtr reader (also .mtp and plain zstd streams): the stream back frame by frame, with
 * random access through the index. See mt_mtr.h and docs/trace-format.md section 4. */
#include "mt_mtr.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "mt_crc32c.h"
#include "mt_le.h"
#include "mt_mtr_header.h"
#include "mt_mtr_index.h"
#include "mt_runs.h"

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
    int index_cut; /* the file ends inside its index or footer: every frame is whole */
    int after_index; /* the last frame read was an index */
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
    /* A runs stream (docs/trace-format.md section 4.2): mt_file_read gives the records stream it
     * stands for, rebuilt from the start (the index's offsets are the runs stream's: not used) */
    int runs;
    uint32_t runs_sync_period;
    mt_runs_reader *rr;
    int runs_eof;
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
            size_t nc = f->in_cap ? f->in_cap * 2 : 1 << 16; /* grows to the largest frame */
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
        const uint8_t *p = f->in + f->in_pos;
        uint32_t magic = avail >= 4 ? mt_get_u32(p) : 0;
        /* cut inside the index or the footer: the writer had written every frame */
        int meta = magic == MT_MTR_MAGIC_IDX || magic == MT_MTR_MAGIC_FOOT || f->after_index;
        if (avail < 8) {
            *(meta ? &f->index_cut : &f->truncated) = 1;
            f->in_pos = f->in_len;
            return 0;
        }
        if ((magic & 0xFFFFFFF0u) == 0x184D2A50u) { /* skippable: header, index, footer */
            uint64_t sz = 8 + (uint64_t)mt_get_u32(p + 4);
            if (fill(f, sz) < sz) {
                *(meta ? &f->index_cut : &f->truncated) = 1;
                f->in_pos = f->in_len;
                return 0;
            }
            f->in_pos += sz;
            f->after_index = magic == MT_MTR_MAGIC_IDX; /* what follows an index is its footer */
            continue;
        }
        f->after_index = 0;
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

static void index_bad(mt_file *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->h.index_note, sizeof f->h.index_note, fmt, ap);
    va_end(ap);
    f->h.index_state = MT_INDEX_BAD;
    free(f->idx);
    f->idx = NULL;
    f->nidx = 0;
    f->h.has_index = 0;
}

static int pread_all(FILE *fp, void *buf, size_t n, uint64_t at)
{
    return pread(fileno(fp), buf, n, (off_t)at) == (ssize_t)n ? 0 : -1;
}

/* Every entry against the file: in stream and file order, each at a zstd frame whose header
 * gives the entry's stream bytes, followed by another frame (data or skippable) where the
 * entry's compressed size ends, all between the header and the index. The checksum catches a
 * damaged index; this catches one that does not describe this file (and version 1 files have no
 * checksum). 0, or -1 with index_bad. */
static int index_verify(mt_file *f, uint64_t idx_off)
{
    uint64_t at = f->data_start, stream = 0, cycle = 0;
    for (size_t i = 0; i < f->nidx; i++) {
        const mt_frame_index *e = &f->idx[i];
        uint8_t fh[18], next[4]; /* 18: a zstd frame header at most (ZSTD_FRAMEHEADERSIZE_MAX) */
        if (e->file_offset < at || e->comp_size < 8 || e->comp_size > idx_off ||
            e->file_offset > idx_off - e->comp_size) {
            index_bad(f, "entry %zu: frame at %" PRIu64 " (%" PRIu64 " bytes) is outside the data", i,
                      e->file_offset, e->comp_size);
            return -1;
        }
        if (e->stream_offset != stream || e->stream_bytes > MT_MTR_FRAME_MAX) {
            index_bad(f, "entry %zu: stream bytes %" PRIu64 "+%" PRIu64 " do not follow on from %" PRIu64, i,
                      e->stream_offset, e->stream_bytes, stream);
            return -1;
        }
        if (e->samples && (e->last_cycle < e->first_cycle || e->last_cycle < cycle)) {
            index_bad(f, "entry %zu: cycles %" PRIu64 "..%" PRIu64 " out of order", i, e->first_cycle,
                      e->last_cycle);
            return -1;
        }
        size_t hn = e->comp_size < sizeof fh ? (size_t)e->comp_size : sizeof fh;
        if (pread_all(f->f, fh, hn, e->file_offset) < 0 || ZSTD_getFrameContentSize(fh, hn) != e->stream_bytes ||
            pread_all(f->f, next, 4, e->file_offset + e->comp_size) < 0 ||
            (mt_get_u32(next) != 0xFD2FB528u && (mt_get_u32(next) & 0xFFFFFFF0u) != 0x184D2A50u)) {
            index_bad(f, "entry %zu does not match the frame at file offset %" PRIu64, i, e->file_offset);
            return -1;
        }
        at = e->file_offset + e->comp_size;
        stream += e->stream_bytes;
        if (e->samples)
            cycle = e->last_cycle;
    }
    return 0;
}

/* The trailer, when one sits between the last data frame (or the header) and the index at io:
 * its text into h.trailer if its checksum holds (else it is ignored, as if absent). */
static void load_trailer(mt_file *f, uint64_t io)
{
    uint64_t at = f->nidx ? f->idx[f->nidx - 1].file_offset + f->idx[f->nidx - 1].comp_size : f->data_start;
    uint8_t p[8 + 12 + MT_MTR_TRAILER_MAX + 4];
    if (io <= at || io - at < 8 + 16 || io - at > sizeof p || pread_all(f->f, p, (size_t)(io - at), at) < 0)
        return;
    size_t sz = (size_t)(io - at) - 8, n = mt_get_u32(p + 16);
    if (mt_get_u32(p) != MT_MTR_MAGIC_TRL || mt_get_u32(p + 4) != sz || memcmp(p + 8, "MTRTRL01", 8) ||
        n >= MT_MTR_TRAILER_MAX || 12 + n + 4 != sz || mt_get_u32(p + 8 + 12 + n) != mt_crc32c(p + 8, 12 + n))
        return;
    memcpy(f->h.trailer, p + 20, n);
    f->h.trailer[n] = 0;
}

/* The index, when the writer finished: the footer at the very end locates it. */
static void load_index(mt_file *f)
{
    uint8_t tail[MT_MTR_FOOT_BYTES];
    uint64_t io;
    size_t foot_len = 0;
    if (fseek(f->f, 0, SEEK_END) != 0)
        return;
    long fsz = ftell(f->f);
    if (fsz < (long)f->data_start + MT_MTR_FOOT1_BYTES)
        return; /* no room for a footer: unfinished */
    size_t tn = fsz - (long)f->data_start >= MT_MTR_FOOT_BYTES ? MT_MTR_FOOT_BYTES : MT_MTR_FOOT1_BYTES;
    if (pread_all(f->f, tail, tn, (uint64_t)fsz - tn) < 0)
        return;
    int r = mt_mtr_footer_decode(tail, tn, &io, &foot_len);
    if (r == 0)
        return; /* MT_INDEX_NONE: the writer did not finish */
    if (r < 0) {
        index_bad(f, "damaged footer");
        return;
    }
    uint8_t ih[8];
    uint64_t end = (uint64_t)fsz - foot_len; /* the index frame must end where the footer starts */
    if (io < f->data_start || io > end || end - io < 8 || pread_all(f->f, ih, 8, io) < 0 ||
        mt_get_u32(ih) != MT_MTR_MAGIC_IDX || mt_get_u32(ih + 4) != end - io - 8) {
        index_bad(f, "the footer points at %" PRIu64 ", where no index frame ends at the footer", io);
        return;
    }
    size_t isz = mt_get_u32(ih + 4);
    uint8_t *ib = malloc(isz ? isz : 1);
    int checked = 0;
    if (!ib || pread_all(f->f, ib, isz, io + 8) < 0 ||
        mt_mtr_index_decode(ib, isz, &f->idx, &f->nidx, &checked, f->h.index_note, sizeof f->h.index_note) < 0) {
        char why[sizeof f->h.index_note];
        snprintf(why, sizeof why, "%s", !ib ? "out of memory" : f->h.index_note[0] ? f->h.index_note : "unreadable index");
        free(ib);
        index_bad(f, "%s", why);
        return;
    }
    free(ib);
    if (index_verify(f, io) < 0)
        return;
    load_trailer(f, io);
    f->h.has_index = 1;
    f->h.index_state = checked ? MT_INDEX_CHECKED : MT_INDEX_UNCHECKED;
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
    size_t n = fill(f, MT_MTR_HDR_FIXED + 8);
    const uint8_t *p = f->in + f->in_pos;
    static const uint8_t sig[MT_SYNC_LEN_SIG] = {0, 0, 0, 0, 0, 0x80};
    f->h.ref_hz = 1000000000ull;
    f->stop_cycle = UINT64_MAX;
    if (n >= 8 + MT_MTR_HDR_FIXED && mt_mtr_header_is(p, n)) {
        uint32_t sz = mt_get_u32(p + 4);
        if (sz < MT_MTR_HDR_FIXED || fill(f, 8 + (size_t)sz) < 8 + (size_t)sz) {
            snprintf(err, errlen, "%s: truncated .mtr header", path);
            mt_file_close(f);
            return NULL;
        }
        if (mt_mtr_header_decode(f->in + f->in_pos + 8, sz, &f->h, path, err, errlen) < 0) {
            mt_file_close(f);
            return NULL;
        }
        f->in_pos += 8 + (size_t)sz;
        f->data_start = 8 + (uint64_t)sz;
        char rerr[200];
        const int runs = mt_runs_from_info(f->h.info, &f->runs_sync_period, rerr, sizeof rerr);
        if (runs < 0) { /* a runs stream of another version: refused by name, never misread */
            snprintf(err, errlen, "%s: %s", path, rerr);
            mt_file_close(f);
            return NULL;
        }
        f->runs = runs;
        load_index(f);
        if (f->runs) /* the index locates the runs stream's frames, not the records read back */
            f->h.has_index = 0;
        clearerr(f->f);
        if (fseek(f->f, (long)f->in_len, SEEK_SET) != 0) {
            snprintf(err, errlen, "%s: cannot seek", path);
            mt_file_close(f);
            return NULL;
        }
    } else if (n >= 4 && mt_get_u32(p) == 0xFD2FB528u) {
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

static ssize_t read_stream(mt_file *f, uint8_t *buf, size_t cap);

/* mt_file_read of a runs stream: the records stream rebuilt from it (mt_runs.h). */
static ssize_t read_runs(mt_file *f, uint8_t *buf, size_t cap)
{
    if (!f->rr) {
        if (!(f->rr = malloc(sizeof *f->rr))) {
            ferr(f, "%s: out of memory", f->path);
            return -1;
        }
        mt_runs_reader_init(f->rr, f->runs_sync_period);
    }
    uint8_t in[1 << 16];
    for (;;) {
        size_t k = mt_runs_reader_take(f->rr, buf, cap);
        if (k)
            return (ssize_t)k;
        if (f->runs_eof)
            return 0;
        ssize_t n = read_stream(f, in, sizeof in);
        if (n < 0)
            return -1;
        if (n == 0) {
            f->runs_eof = 1;
            mt_dec_finish(&f->rr->dec);
        } else if (mt_runs_reader_feed(f->rr, in, (size_t)n) < 0) {
            ferr(f, "%s: %s", f->path, f->rr->err);
            return -1;
        }
        if (f->runs_eof && f->rr->failed) {
            ferr(f, "%s: %s", f->path, f->rr->err);
            return -1;
        }
    }
}

ssize_t mt_file_read(mt_file *f, uint8_t *buf, size_t cap)
{
    return f->runs ? read_runs(f, buf, cap) : read_stream(f, buf, cap);
}

static ssize_t read_stream(mt_file *f, uint8_t *buf, size_t cap)
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
    f->index_cut = 0;
    f->after_index = 0;
    f->bad_frames = 0;
    if (f->rr) { /* a runs stream is rebuilt from its start (seeks rewind) */
        mt_runs_reader_free(f->rr);
        free(f->rr);
        f->rr = NULL;
    }
    f->runs_eof = 0;
    return 0;
}

int mt_file_rewind(mt_file *f)
{
    return reposition(f, f->data_start);
}

int mt_file_seek_cycle(mt_file *f, uint64_t cycle)
{
    if (f->h.raw || !f->nidx || f->runs)
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
    if (f->runs) /* its index describes the runs stream, not the records it gives */
        return;
    f->stop_cycle = cycle;
    f->stopped = 0;
}

const mt_frame_index *mt_file_index(const mt_file *f, size_t *n)
{
    *n = f->runs ? 0 : f->nidx;
    return *n ? f->idx : NULL;
}

int mt_file_truncated(const mt_file *f)
{
    return f->truncated;
}

int mt_file_index_cut(const mt_file *f)
{
    return f->index_cut;
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
    if (f->rr)
        mt_runs_reader_free(f->rr);
    free(f->rr);
    free(f);
}
