/* The bridge between metatrace's records and lib/'s .mtr container and packet stream. */
#ifndef HOST_MTRIO_H
#define HOST_MTRIO_H

#include <stddef.h>

#include "host/sample.h"
#include "host/traceio.h"

ht_source *mtr_open(const char *path, char *err, size_t errlen);

typedef struct mtr_writer mtr_writer;
mtr_writer *mtr_create(const char *path, const trace_writer_opts *o, char *err, size_t errlen);
int mtr_write(mtr_writer *w, const ht_record *r);
int mtr_finish(mtr_writer *w, char *err, size_t errlen); /* as trace_finish */
void mtr_abort(mtr_writer *w);
const char *mtr_writer_error(const mtr_writer *w);

#endif
