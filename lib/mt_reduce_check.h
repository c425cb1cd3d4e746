/* A self-check of the exact reduction (lib/mt_reduce.h), run beside the filter: per metapage
 * size, an LRU memory of C = k_s metapages (the filter's own size, the tightest budget the
 * reduction claims) over the full stream the filter hears, and another over the records it keeps
 * (those with the size's bit, in the order they leave).  The Theorem of docs/metapaging.md
 * "Exact reduction" holds reference by reference (each drop is a step of Lemma 1, which leaves
 * every remaining reference's hit or fault as it was, and the dropped one is a hit), so the
 * check is per reference: every fault of the full stream must come out as a record, and every
 * record must be a fault in the kept stream exactly when its reference was one in the full
 * stream.  The first departure stops the check with the cycle, the size and both streams' recent
 * history.  Written without any of the filter's machinery (no shared code or state), so that a
 * bug of the filter cannot hide in the check. */
#ifndef MT_REDUCE_CHECK_H
#define MT_REDUCE_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "mt_reduce.h"

#define MT_RCHECK_HIST 24 /* references of each stream kept for the report */

/* An LRU memory of k metapages: an array in recency order when k is small, else a hash table
 * with a recency list. */
typedef struct {
    uint32_t k, n;
    uint64_t *mru;                   /* k <= MT_RCHECK_ARRAY_K: metapages, most recent first */
    uint64_t *mp;                    /* else: per node its metapage */
    uint32_t *prev, *next, *hnext;   /* recency list (k: the sentinel) and hash chains */
    uint32_t *bucket, bmask;         /* hash heads (UINT32_MAX: empty) */
    uint64_t last;                   /* the last metapage referenced + 1 (0: none): repeats */
    uint64_t refs, faults;
} mt_rcheck_lru;

typedef struct {
    uint64_t cycle, mp;
    uint8_t fault;
} mt_rcheck_ev;

typedef struct {
    mt_rcheck_lru full, kept;
    uint64_t *fq;                    /* cycles of the full stream's faults not yet matched */
    size_t fq_head, fq_num, fq_cap;  /* a ring (fq_cap a power of two) */
    uint64_t last_rec;               /* the last record's cycle + 1 at this size (order check) */
    mt_rcheck_ev hfull[MT_RCHECK_HIST], hkept[MT_RCHECK_HIST];
    unsigned nhfull, nhkept;         /* events so far (the ring holds the last MT_RCHECK_HIST) */
} mt_rcheck_size;

typedef struct {
    unsigned mask;                   /* the sizes checked (bit i: 4 KiB << i) */
    mt_rcheck_size s[MT_REDUCE_SIZES];
    int failed, oom;
    char msg[8192];                  /* the first departure, with the history */
} mt_rcheck;

/* 0, or -1 (out of memory or a budget mt_reduce refuses).  size_mask: the sizes to check. */
int mt_rcheck_init(mt_rcheck *c, uint64_t budget, unsigned size_mask);
void mt_rcheck_free(mt_rcheck *c);
/* The access the filter is about to hear (call it first: its record may leave at once). */
void mt_rcheck_access(mt_rcheck *c, uint64_t cycle, uint64_t addr);
/* A record as it leaves the filter (mt_reduce_sink's arguments).  0, or -1 at the first
 * departure (mt_rcheck_error says which). */
int mt_rcheck_record(mt_rcheck *c, uint64_t cycle, uint64_t page, unsigned mask);
/* After mt_reduce_finish: every full-stream fault must have come out.  0 or -1. */
int mt_rcheck_finish(mt_rcheck *c);
const char *mt_rcheck_error(const mt_rcheck *c);
/* Per checked size: its faults at C = k in the full and in the kept stream (one line a size). */
void mt_rcheck_summary(const mt_rcheck *c, char *buf, size_t len);

#endif
