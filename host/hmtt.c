/* HMTT record codec, reader and writer (see header). */
#include "host/hmtt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TWO_GIB (UINT64_C(2) << 30)

uint64_t hmtt_pack(const hmtt_record *r)
{
    return ((uint64_t)r->seq << 40) | ((uint64_t)r->duration << 32) |
           ((uint64_t)(r->read & 1) << 31) | (r->raw_addr & 0x7fffffffu);
}

void hmtt_unpack(uint64_t tmp, hmtt_record *r)
{
    r->seq = (uint8_t)((tmp >> 40) & 0xff);
    r->duration = (uint8_t)((tmp >> 32) & 0xff);
    r->read = (uint8_t)((tmp >> 31) & 1);
    r->raw_addr = (uint32_t)(tmp & 0x7fffffffu);
}

void hmtt_put(uint8_t out[HMTT_RECORD_BYTES], uint64_t tmp)
{
    for (int i = 0; i < HMTT_RECORD_BYTES; i++)
        out[i] = (uint8_t)(tmp >> (8 * i));
}

uint64_t hmtt_get(const uint8_t in[HMTT_RECORD_BYTES])
{
    uint64_t v = 0;
    for (int i = 0; i < HMTT_RECORD_BYTES; i++)
        v |= (uint64_t)in[i] << (8 * i);
    return v;
}

int hmtt_is_filler(const hmtt_record *r)
{
    return r->duration == 0 && r->read == 0 && r->raw_addr == 0;
}

uint64_t hmtt_phys_addr(uint32_t raw)
{
    uint64_t p = (uint64_t)(raw & 0x7fffffffu) << 6;
    if (p >= TWO_GIB)
        p += TWO_GIB;
    return p;
}

int hmtt_raw_of_phys(uint64_t paddr, uint32_t *raw)
{
    uint64_t p = paddr;
    if (p >= TWO_GIB) {
        if (p < 2 * TWO_GIB)
            return -1;
        p -= TWO_GIB;
    }
    if ((p >> 6) > 0x7fffffffu)
        return -1;
    *raw = (uint32_t)(p >> 6);
    return 0;
}

/* ---- reader ---- */
typedef struct {
    FILE *f;
    uint64_t ticks_to_cycles;
    uint64_t ticks, index;
    int have_seq;
    uint8_t last_seq;
    ht_record pending;   /* a sample held back while its loss record is returned */
    int has_pending;
} hmtt_state;

static int hmtt_next(ht_source *s, ht_record *out)
{
    hmtt_state *h = s->state;
    if (h->has_pending) {
        *out = h->pending;
        h->has_pending = 0;
        return 1;
    }
    for (;;) {
        uint8_t buf[HMTT_RECORD_BYTES];
        size_t n = fread(buf, 1, sizeof buf, h->f);
        if (n == 0) {
            if (ferror(h->f)) {
                snprintf(s->err, sizeof s->err, "%s: read error", s->name);
                return -1;
            }
            return 0;
        }
        if (n < sizeof buf) {
            snprintf(s->err, sizeof s->err,
                     "%s: truncated: %zu trailing bytes after record %llu (records are 6 bytes)",
                     s->name, n, (unsigned long long)h->index);
            return -1;
        }
        hmtt_record r;
        hmtt_unpack(hmtt_get(buf), &r);
        h->index++;
        uint64_t lost = 0;
        if (h->have_seq)
            lost = (uint8_t)(r.seq - (uint8_t)(h->last_seq + 1));
        h->have_seq = 1;
        h->last_seq = r.seq;
        if (hmtt_is_filler(&r)) {
            h->ticks += HMTT_FILLER_TICKS;
            if (!lost)
                continue;
        } else {
            h->ticks += r.duration;
        }
        ht_record smp = {.cycle = h->ticks * h->ticks_to_cycles,
                         .addr = hmtt_phys_addr(r.raw_addr),
                         .kind = HT_REC_SAMPLE,
                         .write = (uint8_t)!r.read,
                         .format = HT_FMT_LINE,
                         .section = HT_SEC_BURST};
        if (lost) {
            ht_record loss = {.cycle = smp.cycle, .value = lost, .kind = HT_REC_LOSS};
            *out = loss;
            if (!hmtt_is_filler(&r)) {
                h->pending = smp;
                h->has_pending = 1;
            }
            return 1;
        }
        *out = smp;
        return 1;
    }
}

static int hmtt_rewind(ht_source *s)
{
    hmtt_state *h = s->state;
    if (fseek(h->f, 0, SEEK_SET) != 0) {
        snprintf(s->err, sizeof s->err, "%s: cannot rewind", s->name);
        return -1;
    }
    uint64_t t = h->ticks_to_cycles;
    FILE *f = h->f;
    memset(h, 0, sizeof *h);
    h->f = f;
    h->ticks_to_cycles = t;
    return 0;
}

static void hmtt_close(ht_source *s)
{
    hmtt_state *h = s->state;
    if (h->f)
        fclose(h->f);
    free(h);
    free(s);
}

ht_source *hmtt_open(const char *path, uint64_t ticks_to_cycles, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    ht_source *s = calloc(1, sizeof *s);
    hmtt_state *h = calloc(1, sizeof *h);
    if (!s || !h) {
        free(s);
        free(h);
        fclose(f);
        snprintf(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    h->f = f;
    h->ticks_to_cycles = ticks_to_cycles ? ticks_to_cycles : 1;
    s->state = h;
    s->next = hmtt_next;
    s->rewind = hmtt_rewind;
    s->close = hmtt_close;
    snprintf(s->name, sizeof s->name, "%s", path);
    return s;
}

/* ---- writer ---- */
struct hmtt_writer {
    FILE *f;
    uint64_t cycles_per_tick;
    uint64_t last_tick;
    int started;
    uint8_t seq;
    hmtt_writer_stats st;
};

hmtt_writer *hmtt_writer_new(void *file, uint64_t cycles_per_tick)
{
    hmtt_writer *w = calloc(1, sizeof *w);
    if (w) {
        w->f = file;
        w->cycles_per_tick = cycles_per_tick ? cycles_per_tick : 1;
    }
    return w;
}

static int emit(hmtt_writer *w, const hmtt_record *r)
{
    uint8_t buf[HMTT_RECORD_BYTES];
    hmtt_put(buf, hmtt_pack(r));
    w->seq++;
    return fwrite(buf, 1, sizeof buf, w->f) == sizeof buf ? 0 : -1;
}

int hmtt_writer_access(hmtt_writer *w, uint64_t cycle, uint64_t paddr, int write, const char **why)
{
    uint32_t raw;
    if (hmtt_raw_of_phys(paddr, &raw)) {
        *why = paddr >= TWO_GIB && paddr < 2 * TWO_GIB
                   ? "address in [2 GiB, 4 GiB): HMTT's +2 GiB adjustment cannot express it"
                   : "address beyond HMTT's 31-bit line address";
        return -1;
    }
    uint64_t tick = cycle / w->cycles_per_tick;
    if (!w->started) {
        w->started = 1;
        w->last_tick = tick; /* times are relative to the first access */
    }
    if (tick < w->last_tick) {
        *why = "cycles go backwards";
        return -1;
    }
    uint64_t gap = tick - w->last_tick;
    w->last_tick = tick;
    for (; gap >= HMTT_FILLER_TICKS; gap -= HMTT_FILLER_TICKS) {
        hmtt_record f = {.seq = w->seq};
        if (emit(w, &f)) {
            *why = "write error";
            return -1;
        }
        w->st.fillers++;
    }
    hmtt_record r = {.seq = w->seq, .duration = (uint8_t)gap, .read = (uint8_t)!write,
                     .raw_addr = raw};
    if (hmtt_is_filler(&r))
        w->st.ambiguous++;
    if (emit(w, &r)) {
        *why = "write error";
        return -1;
    }
    w->st.records++;
    return 0;
}

void hmtt_writer_stats_get(const hmtt_writer *w, hmtt_writer_stats *s)
{
    *s = w->st;
}

void hmtt_writer_free(hmtt_writer *w)
{
    free(w);
}

void kpte_unpack(const uint8_t in[KPTE_RECORD_BYTES], kpte_record *r)
{
    r->magic = in[0];
    r->pid = (uint32_t)in[1] | (uint32_t)in[2] << 8 | (uint32_t)in[3] << 16 | (uint32_t)in[4] << 24;
    r->vpn = (uint32_t)in[5] | (uint32_t)in[6] << 8 | (uint32_t)in[7] << 16 | (uint32_t)in[8] << 24;
    r->ppn = (uint32_t)in[9] | (uint32_t)in[10] << 8 | (uint32_t)in[11] << 16 | (uint32_t)in[12] << 24;
}

void kpte_pack(const kpte_record *r, uint8_t out[KPTE_RECORD_BYTES])
{
    out[0] = r->magic;
    for (int i = 0; i < 4; i++) {
        out[1 + i] = (uint8_t)(r->pid >> (8 * i));
        out[5 + i] = (uint8_t)(r->vpn >> (8 * i));
        out[9 + i] = (uint8_t)(r->ppn >> (8 * i));
    }
}

int kpte_is_set(uint8_t magic)
{
    return magic == 0xec;
}

int kpte_is_free(uint8_t magic)
{
    return magic == 0xfc || magic == 0x22 || magic == 0x33;
}
