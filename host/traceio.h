/* Opening traces for reading and writing, whatever their container:
 *   *.mtr / *.mtp   the project's container / raw packet stream (lib/ decoder and encoder)
 *   *.csv           text, header "cycle,address,rw", one access a line (address hex 0x.. or
 *                   decimal, rw R or W): an every-access full-address trace; or the 7-column
 *                   form of `decode --format csv` (sections, formats, markers kept), which
 *                   the writer uses for sampled traces
 * Readers stream; nothing holds a whole trace. */
#ifndef HOST_TRACEIO_H
#define HOST_TRACEIO_H

#include <stddef.h>

#include "host/sample.h"

/* NULL on error with a one-line message naming the file in err. */
ht_source *trace_open(const char *path, char *err, size_t errlen);
ht_source *trace_open_csv(const char *path, char *err, size_t errlen);

/* A trace being written. */
typedef struct trace_writer trace_writer;
typedef struct {
    const char *producer;   /* "metatrace import", ... (recorded in the container header) */
    ht_format format;       /* sample format of the whole trace */
    unsigned rate;          /* cycles per sample (1 = every access) */
} trace_writer_opts;

trace_writer *trace_create(const char *path, const trace_writer_opts *o, char *err, size_t errlen);
/* 0 ok, -1 error (message in err given at create time... retrieved with trace_writer_error) */
int trace_write(trace_writer *w, const ht_record *r);
/* Flushes, closes and renames the output into place; on failure the partial output is removed
 * and err says why ("OUT: write failed: ...").  0 ok, -1 error. */
int trace_finish(trace_writer *w, char *err, size_t errlen);
void trace_abort(trace_writer *w); /* closes and removes the output */
const char *trace_writer_error(const trace_writer *w);

/* Writes one record in the 7-column form cycle,kind,section,format,rw,address,value (what
 * `decode --format csv` prints and the CSV reader accepts besides "cycle,address,rw"). */
void csv_write_record(FILE *f, const ht_record *r);
/* Writes one "cycle,address,rw" line. */
void csv_write_access(FILE *f, uint64_t cycle, uint64_t addr, int write);
/* Parses one data line of that CSV (no header).  0 ok, -1 with a reason in why. */
int csv_parse_access(const char *line, uint64_t *cycle, uint64_t *addr, int *write,
                     const char **why);

#endif
