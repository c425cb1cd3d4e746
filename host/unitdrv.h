/* Driving lib's cycle-exact trace-unit model (mt_unit) from host-generated accesses: configure
 * its registers, enable it, feed accesses, stop it.  Its drained bytes go to a sink: a FILE
 * (raw .mtp) or lib's container writer (mt_writer_sink, .mtr). */
#ifndef HOST_UNITDRV_H
#define HOST_UNITDRV_H

#include <stdint.h>
#include <stdio.h>

#include "host/sampler.h"
#include "mt_event.h"
#include "mt_unit.h"

typedef struct {
    mt_unit u;
    FILE *out;              /* when writing a raw stream */
    mt_sink_fn sink;        /* otherwise */
    void *sink_ctx;
    int write_error;
    uint64_t bytes;
} unit_driver;

/* The register values for a sampling configuration (what the container header records). */
void unit_driver_cfg(const sampler_config *c, mt_unit_cfg *out);
/* Starts a session whose first burst begins at c->start (>= 2); bytes go to `out` when not
 * NULL, else to sink(sink_ctx, ...).  0 ok, -1 error. */
int unit_driver_start(unit_driver *d, const sampler_config *c, FILE *out, mt_sink_fn sink,
                      void *sink_ctx);
void unit_driver_access(unit_driver *d, const mt_access *a);
/* Stops the session at `cycle`, drains everything (END included).  0 ok, -1 write error. */
int unit_driver_stop(unit_driver *d, uint64_t cycle);
uint32_t unit_driver_dropped(unit_driver *d);

#endif
