/* The streaming packet decoder (docs/trace-format.md section 3.1).
 *
 * Feed it bytes in pieces of any size; it calls back once per event. It starts at the first
 * SYNC (or at the start of the stream if that is a SYNC), reports every problem as an
 * MT_DEV_LOSS event naming the stream offset and what was wrong, then looks for the next SYNC.
 * It never reads outside the bytes it is given and never aborts. */
#ifndef MT_DEC_H
#define MT_DEC_H

#include <stddef.h>
#include <stdint.h>

#include "mt_pkt.h"

typedef enum {
    MT_DEV_SAMPLE,   /* cycle = sample point, value, addr (address part), rw, fmt, span, rate, skip */
    MT_DEV_SYNC,     /* cycle = cycle written, count = seq, value = prev_bytes */
    MT_DEV_SECTION,  /* cycle = first interval's sample point, span, fmt, rate */
    MT_DEV_OVERFLOW, /* count = samples dropped */
    MT_DEV_MARKER,   /* value */
    MT_DEV_END,      /* value = samples reported, count = samples dropped */
    MT_DEV_LOSS,     /* what = reason, count = bytes skipped (0 if unknown) */
} mt_dev_type;

typedef struct {
    mt_dev_type type;
    uint64_t offset; /* stream offset of the packet's first byte */
    uint64_t cycle;
    uint64_t value;
    uint64_t addr;
    uint64_t count;
    uint64_t skip; /* SAMPLE: intervals without a reported sample just before this one */
    uint32_t rate;
    uint8_t rw, fmt, span;
    const char *what;
} mt_dec_event;

typedef void (*mt_dec_cb)(void *ctx, const mt_dec_event *ev);

typedef struct {
    /* position */
    uint64_t offset;      /* stream offset of the next unconsumed byte */
    int synced;           /* 1: parsing packets; 0: scanning for a SYNC */
    int have_section;     /* a SECTION has set the section since the last SYNC */
    int session_ended;    /* END seen: only a SYNC may follow */
    uint64_t scan_start;  /* offset where scanning began */
    unsigned zrun;        /* scanning: consecutive zero bytes just seen */
    /* section and pointer */
    uint8_t span, fmt;
    uint32_t rate;
    uint64_t ptr;
    /* history */
    uint64_t hist[3];
    uint8_t hist_valid;
    uint64_t prev_a;
    uint8_t prev_rw, prev_valid;
    /* runs streams (docs/trace-format.md section 4.2): FETCHES packets are accepted only when
     * the caller sets `runs` (the container said so); fa = the last FETCHES element's address */
    int runs;
    uint64_t fa;
    /* loss detection */
    int have_sync;
    uint8_t last_seq;
    uint64_t last_sync_offset;
    /* carry of a packet split across feed calls */
    uint8_t carry[MT_PKT_MAX * 2];
    unsigned carry_len;
    /* totals */
    uint64_t samples, losses, bytes_skipped;
    mt_dec_cb cb;
    void *ctx;
} mt_dec;

void mt_dec_init(mt_dec *d, mt_dec_cb cb, void *ctx);
void mt_dec_feed(mt_dec *d, const uint8_t *p, size_t n);
/* End of input: reports a truncated packet or unsynchronised tail. */
void mt_dec_finish(mt_dec *d);

#endif
