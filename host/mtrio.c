/* Bridge between metatrace's records and lib/'s trace files.
 *
 * Reading: lib's mt_file (a .mtr container, a raw .mtp packet stream or a zstd-compressed one)
 * hands out the packet stream in 64 KiB pieces, which lib's streaming decoder (mt_dec) turns
 * into events, queued here as records.  A sample's `value` carries the number of intervals
 * skipped just before it (idle, or dropped as an OVERFLOW says).
 * Writing: explicit records through lib's software stream encoder: mt_writer (.mtr container)
 * or mt_swenc into a plain file (.mtp).  A SECTION opens whenever the section, format or rate
 * changes (at the earliest right after the last sample point: a section's last interval may
 * reach past its end, as the trace unit's do); a sample whose cycle is not on its section's grid (or shares an interval with the
 * previous one) moves to the next free sample point and is counted as shifted. */
#include "host/mtrio.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "mt_dec.h"
#include "mt_mtr.h"
#include "mt_outfile.h"
#include "mt_pkt.h"
#include "mt_swenc.h"
#include "mt_paths.h"

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

static int is_mtp(const char *path)
{
    size_t n = strlen(path);
    return n >= 4 && strcasecmp(path + n - 4, ".mtp") == 0;
}

/* ---------------- reader ---------------- */
typedef struct {
    mt_file *f;
    mt_dec dec;
    ht_record *q;
    size_t qhead, qlen, qcap;
    int oom, eof;
    int told;            /* the damage was reported (once per source, whatever the rewinds) */
    uint64_t last_cycle; /* of the last record read: where a damaged trace's readable part ends */
    int read_any;
    uint64_t losses, lost_bytes; /* the decoder's LOSS events: a damaged stream */
    uint64_t from;       /* restrict_cycles: where rewind seeks to (0: the start) */
    uint64_t to;         /* and the last cycle wanted (UINT64_MAX: all) */
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
    case MT_DEV_LOSS:
        r.kind = HT_REC_LOSS;
        r.value = ev->count;
        m->losses++;
        m->lost_bytes += ev->count;
        break;
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

/* At the end of the stream read back: what a killed writer or a corrupt frame took away. Only a
 * .mtr has an index to miss; a raw stream (.mtp, plain zstd) ends where it ends. */
static void tell_damage(ht_source *s)
{
    mtp_state *m = s->state;
    const mt_file_header *h = mt_file_header_get(m->f);
    uint64_t bad = mt_file_bad_frames(m->f);
    int cut = mt_file_truncated(m->f), index_cut = mt_file_index_cut(m->f);
    int unfinished = !h->raw && h->index_state == MT_INDEX_NONE && !index_cut;
    if (!m->told && index_cut && !bad && !m->losses && !cut) {
        /* every frame is whole: the answer is complete, only the seek shortcut is missing */
        m->told = 1;
        fprintf(stderr, "metatrace: %s: note: the writer stopped while writing the index; every frame is "
                        "whole and was read: nothing is lost\n", s->name);
        return;
    }
    if (m->told || (!bad && !m->losses && !cut && !unfinished))
        return;
    /* records come in cycle order: one past the region read means the region itself is whole */
    if (!bad && !m->losses && m->read_any && m->last_cycle > m->to)
        return;
    m->told = 1;
    ht_note_damaged_input();
    if (bad)
        fprintf(stderr, "metatrace: %s: %" PRIu64 " corrupt frame%s skipped: the samples in %s are missing\n",
                s->name, bad, bad == 1 ? "" : "s", bad == 1 ? "it" : "them");
    if (m->losses) /* (the trace unit never writes a stream its decoder loses: the file is damaged) */
        fprintf(stderr, "metatrace: %s: damaged: the decoder lost its place %" PRIu64 " time%s (%" PRIu64
                        " bytes skipped) and resynchronised at a SYNC: the samples there are missing\n",
                s->name, m->losses, m->losses == 1 ? "" : "s", m->lost_bytes);
    const char *why = cut ? "its last frame is cut short" : "no index";
    if ((cut || unfinished) && m->read_any)
        fprintf(stderr, "metatrace: %s: incomplete: the writer did not finish (%s): what it read ends at "
                        "cycle %" PRIu64 ", the rest is lost (a killed writer loses at most its last second or MiB)\n",
                s->name, why, m->last_cycle);
    else if (cut || unfinished)
        fprintf(stderr, "metatrace: %s: incomplete: the writer did not finish (%s) and no frame of it is "
                        "complete: nothing could be read\n", s->name, why);
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
        ssize_t n = mt_file_read(m->f, m->buf, sizeof m->buf);
        if (n < 0) {
            snprintf(s->err, sizeof s->err, "%s: %s", s->name, mt_file_error(m->f));
            return -1;
        }
        if (n == 0) {
            m->eof = 1;
            mt_dec_finish(&m->dec);
            tell_damage(s);
        } else {
            mt_dec_feed(&m->dec, m->buf, (size_t)n);
        }
    }
    *r = m->q[m->qhead++];
    m->last_cycle = r->cycle;
    m->read_any = 1;
    m->qlen--;
    if (!m->qlen)
        m->qhead = 0;
    return 1;
}

static int mtp_rewind(ht_source *s)
{
    mtp_state *m = s->state;
    if ((m->from ? mt_file_seek_cycle(m->f, m->from) : mt_file_rewind(m->f)) < 0) {
        snprintf(s->err, sizeof s->err, "%s: cannot rewind: %s", s->name, mt_file_error(m->f));
        return -1;
    }
    mt_dec_init(&m->dec, on_event, m);
    m->qhead = m->qlen = 0;
    m->eof = m->oom = 0;
    m->losses = m->lost_bytes = 0; /* counted again by this pass */
    return 0;
}

static int mtp_restrict(ht_source *s, uint64_t from, uint64_t to)
{
    mtp_state *m = s->state;
    size_t nidx = 0;
    mt_file_index(m->f, &nidx);
    m->to = to;
    if (!nidx)
        return 0;
    m->from = from;
    mt_file_stop_after(m->f, to);
    return mtp_rewind(s) ? -1 : 1;
}

static void mtp_close(ht_source *s)
{
    mtp_state *m = s->state;
    mt_file_close(m->f);
    free(m->q);
    free(m);
    free(s);
}

static const char *mtp_header_info(ht_source *s)
{
    mtp_state *m = s->state;
    return mt_file_header_get(m->f)->info;
}

static const char *mtp_trailer_info(ht_source *s)
{
    mtp_state *m = s->state;
    return mt_file_header_get(m->f)->trailer;
}

static void mtp_describe(ht_source *s, FILE *out)
{
    mtp_state *m = s->state;
    const mt_file_header *h = mt_file_header_get(m->f);
    size_t nidx = 0;
    const mt_frame_index *idx = mt_file_index(m->f, &nidx);
    fprintf(out, "container: %s\n", h->raw == 1 ? "raw packet stream (.mtp)"
                                    : h->raw == 2 ? "zstd-compressed packet stream" : ".mtr");
    if (h->raw)
        return;
    fprintf(out, "reference clock: %" PRIu64 " Hz\n", h->ref_hz);
    if (h->has_unit_cfg) {
        const mt_unit_cfg *c = &h->cfg;
        fprintf(out, "trace unit: kind_mask 0x%x tap %u fmt burst %s span %s, rate_h %u rate_l %u, "
                     "len_h %" PRIu64 " len_l %" PRIu64 ", sync period %u, fifo %u B drain %u B/cycle\n",
                c->kind_mask, c->tap, mt_fmt_name(c->fmt & 3), mt_fmt_name((c->fmt >> 4) & 3),
                c->rate_h, c->rate_l, c->len_h, c->len_l, c->sync_period, h->fifo_depth, h->fifo_drain);
    }
    const char *p = h->info;
    while (*p) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        if (len)
            fprintf(out, "  %.*s\n", len, p);
        p += len + (nl != NULL);
    }
    for (p = h->trailer; *p;) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        if (len)
            fprintf(out, "  trailer: %.*s\n", len, p);
        p += len + (nl != NULL);
    }
    fprintf(out, "header: %s\n", h->header_checked ? "checked (CRC-32C matches)"
                                                     : "unchecked (an older file: version 1, no checksum)");
    if (h->has_index) {
        uint64_t samples = 0, first = 0, last = 0;
        int any = 0;
        for (size_t i = 0; i < nidx; i++) {
            samples += idx[i].samples;
            if (idx[i].samples) { /* frames without samples index no cycles */
                if (!any)
                    first = idx[i].first_cycle;
                last = idx[i].last_cycle;
                any = 1;
            }
        }
        fprintf(out, "index: %zu frames, %" PRIu64 " samples", nidx, samples);
        if (any)
            fprintf(out, ", cycles %" PRIu64 "..%" PRIu64, first, last);
        fprintf(out, ", %s\n", h->index_state == MT_INDEX_CHECKED
                                   ? "checked (CRC-32C matches, entries match their frames)"
                                   : "unchecked (an older file: no checksum; entries match their frames)");
    } else if (h->index_state == MT_INDEX_CHECKED || h->index_state == MT_INDEX_UNCHECKED) {
        /* a runs stream (docs/trace-format.md section 4.2): the index locates its own frames */
        fprintf(out, "index: the runs stream's (not used: the records are rebuilt from the start)\n");
    } else if (h->index_state == MT_INDEX_BAD) {
        fprintf(out, "index: damaged (%s): set aside, every frame read in order\n", h->index_note);
    } else {
        fprintf(out, "index: none (the writer did not finish: reading up to the last complete frame)\n");
    }
}

ht_source *mtr_open(const char *path, char *err, size_t errlen)
{
    char e[400];
    mt_file *f = mt_file_open(path, e, sizeof e);
    if (!f) {
        snprintf(err, errlen, "%s", e);
        return NULL;
    }
    ht_source *s = calloc(1, sizeof *s);
    mtp_state *m = calloc(1, sizeof *m);
    if (!s || !m) {
        free(s);
        free(m);
        mt_file_close(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    const mt_file_header *h = mt_file_header_get(f);
    if (h->index_state == MT_INDEX_BAD) /* the answer stays right, only slower: say why */
        fprintf(stderr, "metatrace: %s: note: index damaged (%s): set aside, reading every frame in order\n",
                path, h->index_note);
    m->f = f;
    m->to = UINT64_MAX;
    mt_dec_init(&m->dec, on_event, m);
    s->state = m;
    s->next = mtp_next;
    s->rewind = mtp_rewind;
    s->close = mtp_close;
    s->describe = mtp_describe;
    s->header_info = mtp_header_info;
    s->trailer_info = mtp_trailer_info;
    s->restrict_cycles = mtp_restrict;
    snprintf(s->name, sizeof s->name, "%s", path);
    return s;
}

/* ---------------- writer ---------------- */
struct mtr_writer {
    mt_writer *mtr;        /* .mtr */
    FILE *f;               /* .mtp: mt_swenc into this file (out.f) */
    mt_outfile out;        /* .mtp: renamed into place by mtr_finish */
    mt_swenc sw;
    int sink_error;
    char path[512];
    trace_writer_opts o;
    int have_section;
    unsigned span, fmt;
    uint64_t rate, ptr;    /* section rate and the next free sample point */
    uint64_t floor;        /* earliest cycle a new SECTION may start: last sample point + 1 */
    uint64_t shifted;
    int failed;
    char err[700];
};

static void file_sink(void *ctx, const uint8_t *p, size_t n)
{
    mtr_writer *w = ctx;
    if (fwrite(p, 1, n, w->f) != n)
        w->sink_error = 1;
}

static int fail(mtr_writer *w, const char *what)
{
    if (!w->failed) {
        if (w->mtr && *mt_writer_error(w->mtr)) /* ("PATH: problem" already) */
            snprintf(w->err, sizeof w->err, "%s", mt_writer_error(w->mtr));
        else
            snprintf(w->err, sizeof w->err, "%s: %s", w->path, w->sink_error ? strerror(errno) : what);
    }
    w->failed = 1;
    return -1;
}

static int w_section(mtr_writer *w, unsigned span, unsigned fmt, uint64_t rate, uint64_t cycle)
{
    if (rate == 0 || rate > UINT32_MAX)
        rate = 1;
    int rc = w->mtr ? mt_writer_section(w->mtr, span, fmt, (uint32_t)rate, cycle)
                    : mt_swenc_section(&w->sw, span, fmt, (uint32_t)rate, cycle);
    if (rc || w->sink_error)
        return fail(w, "cannot start a section");
    w->have_section = 1;
    w->span = span;
    w->fmt = fmt;
    w->rate = rate;
    w->ptr = cycle;
    return 0;
}

mtr_writer *mtr_create(const char *path, const trace_writer_opts *o, char *err, size_t errlen)
{
    mtr_writer *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    snprintf(w->path, sizeof w->path, "%s", path);
    w->o = *o;
    if (!w->o.rate)
        w->o.rate = 1;
    if (is_mtp(path)) {
        if (mt_outfile_open(&w->out, path, "wb", 0, err, errlen) < 0) {
            free(w);
            return NULL;
        }
        w->f = w->out.f;
        mt_swenc_init(&w->sw, 4096, file_sink, w);
        return w;
    }
    mt_writer_config c;
    memset(&c, 0, sizeof c);
    c.producer = o->producer ? o->producer : "metatrace";
    char e[400];
    w->mtr = mt_writer_create(path, &c, e, sizeof e);
    if (!w->mtr) {
        snprintf(err, errlen, "%s", e);
        free(w);
        return NULL;
    }
    return w;
}

int mtr_write(mtr_writer *w, const ht_record *r)
{
    if (w->failed)
        return -1;
    int rc = 0;
    switch (r->kind) {
    case HT_REC_SECTION:
        return w_section(w, r->section == HT_SEC_SPAN, fmt_to_lib((ht_format)r->format),
                         r->value ? r->value : 1, r->cycle < w->floor ? w->floor : r->cycle);
    case HT_REC_MARKER:
        if (!w->have_section)
            return 0; /* nothing to attach it to before the session starts */
        rc = w->mtr ? mt_writer_marker(w->mtr, (uint32_t)r->value) : mt_swenc_marker(&w->sw, (uint32_t)r->value);
        return rc || w->sink_error ? fail(w, "cannot write a marker") : 0;
    case HT_REC_OVERFLOW:
    case HT_REC_LOSS: {
        if (!w->have_section || !r->value)
            return 0;
        uint32_t n = r->value > UINT32_MAX ? UINT32_MAX : (uint32_t)r->value;
        rc = w->mtr ? mt_writer_overflow(w->mtr, n) : mt_swenc_overflow(&w->sw, n);
        return rc || w->sink_error ? fail(w, "cannot write an overflow") : 0;
    }
    case HT_REC_SAMPLE: break;
    default: return 0;
    }
    unsigned fmt = fmt_to_lib((ht_format)r->format);
    unsigned span = r->section == HT_SEC_SPAN;
    if (!w->have_section || fmt != w->fmt || span != w->span) {
        uint64_t rate = w->have_section && span == w->span ? w->rate : w->o.rate;
        if (w_section(w, span, fmt, rate, r->cycle < w->floor ? w->floor : r->cycle))
            return -1;
    }
    uint64_t c = r->cycle;
    if (c < w->ptr || (c - w->ptr) % w->rate) {
        /* off the grid, or a second sample in one interval: the next free sample point */
        c = c < w->ptr ? w->ptr : w->ptr + ((c - w->ptr + w->rate - 1) / w->rate) * w->rate;
        w->shifted++;
    }
    if ((c - w->ptr) / w->rate >= (UINT64_C(1) << 40)) { /* an idle stretch beyond a skip field */
        if (w_section(w, span, fmt, w->rate, c))
            return -1;
    }
    rc = w->mtr ? mt_writer_sample(w->mtr, c, r->addr, r->write) : mt_swenc_sample(&w->sw, c, r->addr, r->write);
    if (rc || w->sink_error)
        return fail(w, "cannot write a sample");
    w->ptr = c + w->rate;
    w->floor = c + 1;
    return 0;
}

int mtr_finish(mtr_writer *w, char *err, size_t errlen)
{
    int rc = w->failed ? -1 : 0;
    if (rc)
        snprintf(err, errlen, "%s", w->err[0] ? w->err : "write failed");
    if (w->mtr) {
        if (rc)
            mt_writer_abort(w->mtr);
        else if (mt_writer_finish(w->mtr, err, errlen))
            rc = -1;
    } else {
        if (!rc && w->have_section && mt_swenc_end(&w->sw))
            rc = -1;
        if (w->sink_error && !rc)
            snprintf(err, errlen, "%s: write failed", w->path);
        if (rc || w->sink_error)
            mt_outfile_discard(&w->out);
        else if (mt_outfile_commit(&w->out, err, errlen) < 0)
            rc = -1;
        if (w->sink_error)
            rc = -1;
    }
    if (!rc && w->shifted)
        fprintf(stderr, "note: %s: %" PRIu64 " samples moved to the next free sample point "
                "(several in one interval, or off the section's grid)\n", w->path, w->shifted);
    free(w);
    return rc;
}

void mtr_abort(mtr_writer *w)
{
    if (!w)
        return;
    if (w->mtr) {
        mt_writer_abort(w->mtr);
    } else {
        mt_outfile_discard(&w->out);
    }
    free(w);
}

const char *mtr_writer_error(const mtr_writer *w)
{
    return w->err;
}
