/* Region of interest: the part of a trace an analysis looks at, chosen on the command line of
 * every analysis command (info, decode, policy, rowbuf, compare, reconstruct, export, plot) by
 * one shared parser, and applied by one filtering source stage.
 *
 *   --from CYCLE / --to CYCLE   records with cycle in [from, to] (--from-cycle/--to-cycle are
 *                               the same, for commands where --to names something else)
 *   --between-markers A,B       the records after the first MARKER with value A up to the next
 *                               MARKER with value B (both excluded); firmware brackets a
 *                               workload's region with wl<<24|point<<8|1 and ...|2
 *                               (docs/firmware.md)
 *   --addr-range BASE+SIZE      only the samples whose address is in [BASE, BASE + SIZE) (e.g.
 *                               guest RAM: 0x80000000+128M); other records pass unchanged
 *
 * With an .mtr that has an index, --from seeks to the first frame that reaches it and reading
 * stops past --to instead of scanning the whole file; without one (a killed writer, .mtp, CSV)
 * the trace is scanned and filtered. */
#ifndef HOST_ROI_H
#define HOST_ROI_H

#include <stddef.h>
#include <stdint.h>

#include "host/sample.h"

typedef struct {
    uint64_t from, to;       /* inclusive cycle bounds (0, UINT64_MAX: none) */
    int markers;             /* --between-markers given */
    uint64_t mark_a, mark_b;
    int addrs;               /* --addr-range given: samples with addr_lo <= addr < addr_end */
    uint64_t addr_lo, addr_end;
} roi_opts;

#define ROI_KEEP_TO 1u /* the command's own --to takes a non-cycle value: leave it alone */

/* The options' help text (one block, for a command's --help). */
extern const char roi_help[];

/* Takes the region options out of argv (so the command's own getopt never sees them) and
 * compacts argv/argc; stops at "--".  Returns 0, or 2 after printing a one-line error
 * ("metatrace CMD: --from: 'x' is not a cycle number", --from after --to, ...). */
int roi_parse_args(const char *cmd, unsigned flags, int *argc, char **argv, roi_opts *o);

/* Parses BASE+SIZE (BASE a number, decimal or 0x hex; SIZE the same or decimal bytes with a K/M/G suffix, > 0) into the
 * half-open range [lo, end); end 0 stands for 2^64.  0, or -1 when it is not that. */
int roi_parse_addr_range(const char *v, uint64_t *lo, uint64_t *end);

/* 1 when addr is in o's address range (o->addrs given). */
static inline int roi_addr_in(const roi_opts *o, uint64_t addr)
{
    return addr >= o->addr_lo && (o->addr_end == 0 || addr < o->addr_end);
}

/* 1 when o selects anything narrower than the whole trace. */
int roi_active(const roi_opts *o);

/* Opens a trace (trace_open) restricted to the region: NULL on error (message in err).
 * *indexed (may be NULL) is set to 1 when the container's index was used to seek, -1 when a
 * cycle range was asked of a container without an index (it will be scanned), else 0. */
ht_source *roi_open(const char *path, const roi_opts *o, int *indexed, char *err, size_t errlen);

/* The filtering stage itself: wraps `inner` (taking ownership) so that only the region's
 * records come out.  The SECTION record in force when the region starts is passed on first
 * (with its own cycle), so that sampled-trace analyses still know the section, format and
 * rate.  rewind() restarts the region.  NULL if out of memory (inner is closed). */
ht_source *roi_filter(ht_source *inner, const roi_opts *o);

#endif
