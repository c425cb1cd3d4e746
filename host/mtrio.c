/* Bridge to lib/'s container.  Until lib/ provides its decoder and container API this reports
 * clearly that .mtr files cannot be read or written yet (CSV works everywhere). */
#include "host/mtrio.h"

#include <stdio.h>

ht_source *mtr_open(const char *path, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: reading .mtr/.mtp needs lib's container decoder, not built yet "
             "(use a .csv trace)", path);
    return NULL;
}

mtr_writer *mtr_create(const char *path, const trace_writer_opts *o, char *err, size_t errlen)
{
    (void)o;
    snprintf(err, errlen, "%s: writing .mtr needs lib's container writer, not built yet "
             "(write a .csv)", path);
    return NULL;
}

int mtr_write(mtr_writer *w, const ht_record *r)
{
    (void)w;
    (void)r;
    return -1;
}

int mtr_finish(mtr_writer *w)
{
    (void)w;
    return -1;
}

void mtr_abort(mtr_writer *w)
{
    (void)w;
}

const char *mtr_writer_error(const mtr_writer *w)
{
    (void)w;
    return "no .mtr writer";
}
