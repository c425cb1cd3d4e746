/* The runs stream's reader (docs/trace-format.md section 4.2): rebuilds, from a runs stream
 * (FETCHES packets for the fetches, SAMPLEs for the rest), the packet stream the every-access
 * recorder writes without runs, byte for byte: the runs stream is decoded (mt_dec with runs set)
 * and its events re-encoded by the same software encoder and SYNC period the records writer uses
 * (mt_swenc).  The container reader (mt_file_read) puts it in front of every reader, so decode,
 * export, info, policy and compare read a runs file as the records file it stands for. */
#ifndef MT_RUNS_H
#define MT_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "mt_dec.h"
#include "mt_swenc.h"

/* The header's info keys (section 4.1/4.2): the mode, the runs format's version, and the SYNC
 * period of the records stream it stands for. */
#define MT_RUNS_MODE "every-access-runs"
#define MT_RUNS_VERSION 1u

typedef struct {
    mt_dec dec;
    mt_swenc enc;
    uint8_t *out; /* rebuilt bytes not yet taken: out[out_pos..out_len) */
    size_t out_pos, out_len, out_cap;
    int failed;   /* a loss in the runs stream, or the rebuilt records refused: no more output */
    char err[160];
} mt_runs_reader;

/* sync_period: the records stream's (trace.all_sync_period). */
void mt_runs_reader_init(mt_runs_reader *r, uint32_t sync_period);
void mt_runs_reader_free(mt_runs_reader *r);
/* Feeds runs-stream bytes; the rebuilt bytes wait in out.  -1 (err says why) on a loss. */
int mt_runs_reader_feed(mt_runs_reader *r, const uint8_t *p, size_t n);
/* Takes up to cap rebuilt bytes; returns how many. */
size_t mt_runs_reader_take(mt_runs_reader *r, uint8_t *buf, size_t cap);

/* From a header's info text: 0 when it names no runs stream, 1 when it does (with the records'
 * SYNC period in *sync_period), -1 when it names one this library cannot read (err says which). */
int mt_runs_from_info(const char *info, uint32_t *sync_period, char *err, size_t errlen);

#endif
