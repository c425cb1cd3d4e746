/* The region-of-interest option parser and filtering source stage (see roi.h). */
#include "host/roi.h"

#include <inttypes.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "host/cli.h"
#include "host/traceio.h"

const char roi_help[] =
    "region of interest (any analysis command):\n"
    "  --from CYCLE, --to CYCLE     only records with cycle in [from, to] (also spelt\n"
    "                               --from-cycle/--to-cycle); an indexed .mtr seeks to --from and\n"
    "                               stops reading past --to\n"
    "  --between-markers A,B        only records after the first MARKER with value A and before\n"
    "                               the next MARKER with value B (firmware workloads bracket their\n"
    "                               region with wl<<24|point<<8|1 and ...|2)\n"
    "  --addr-range BASE+SIZE       only samples with an address in [BASE, BASE + SIZE), e.g.\n"
    "                               0x80000000+128M (guest RAM); other records pass unchanged\n";

int roi_active(const roi_opts *o)
{
    return o->from != 0 || o->to != UINT64_MAX || o->markers || o->addrs;
}

/* Matches "--name VALUE" or "--name=VALUE" at argv[i]; returns the value or NULL. */
static const char *opt_value(const char *name, int argc, char **argv, int i, int *used)
{
    size_t n = strlen(name);
    const char *a = argv[i];
    if (strncmp(a, name, n))
        return NULL;
    if (a[n] == '=') {
        *used = 1;
        return a + n + 1;
    }
    if (a[n] || i + 1 >= argc)
        return NULL;
    *used = 2;
    return argv[i + 1];
}

int roi_parse_addr_range(const char *v, uint64_t *lo, uint64_t *end)
{
    const char *plus = strchr(v, '+');
    char base[64];
    size_t lb = plus ? (size_t)(plus - v) : 0;
    uint64_t size;
    if (!plus || lb >= sizeof base)
        return -1;
    memcpy(base, v, lb);
    base[lb] = 0;
    /* BASE + SIZE may be 2^64 exactly (the end is exclusive): end 0 then stands for 2^64 */
    if (cli_parse_u64(base, lo) || (cli_parse_u64(plus + 1, &size) && cli_parse_bytes(plus + 1, &size)) || size == 0 ||
        (*lo + size < *lo && *lo + size != 0))
        return -1;
    *end = *lo + size;
    return 0;
}

int roi_parse_args(const char *cmd, unsigned flags, int *argc, char **argv, roi_opts *o)
{
    memset(o, 0, sizeof *o);
    o->to = UINT64_MAX;
    int out = 1;
    int i = 1;
    while (i < *argc) {
        if (!strcmp(argv[i], "--")) {
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        int used = 0;
        const char *v;
        if ((v = opt_value("--from-cycle", *argc, argv, i, &used)) ||
            (v = opt_value("--from", *argc, argv, i, &used))) {
            if (cli_parse_u64(v, &o->from)) {
                cli_error(cmd, "--from: '%s' is not a cycle number", v);
                return 2;
            }
        } else if ((v = opt_value("--to-cycle", *argc, argv, i, &used)) ||
                   (!(flags & ROI_KEEP_TO) && (v = opt_value("--to", *argc, argv, i, &used)))) {
            if (cli_parse_u64(v, &o->to)) {
                cli_error(cmd, "--to: '%s' is not a cycle number", v);
                return 2;
            }
        } else if ((v = opt_value("--between-markers", *argc, argv, i, &used))) {
            const char *comma = strchr(v, ',');
            char a[64];
            size_t la = comma ? (size_t)(comma - v) : 0;
            if (!comma || la >= sizeof a) {
                cli_error(cmd, "--between-markers: '%s' is not two marker values A,B", v);
                return 2;
            }
            memcpy(a, v, la);
            a[la] = 0;
            if (cli_parse_u64(a, &o->mark_a) || cli_parse_u64(comma + 1, &o->mark_b) ||
                o->mark_a > UINT32_MAX || o->mark_b > UINT32_MAX) {
                cli_error(cmd, "--between-markers: '%s' is not two 32-bit marker values A,B", v);
                return 2;
            }
            o->markers = 1;
        } else if ((v = opt_value("--addr-range", *argc, argv, i, &used))) {
            if (roi_parse_addr_range(v, &o->addr_lo, &o->addr_end)) {
                cli_error(cmd, "--addr-range: '%s' is not BASE+SIZE with SIZE > 0 and BASE + SIZE "
                               "at most 2^64 (e.g. 0x80000000+128M)", v);
                return 2;
            }
            o->addrs = 1;
        } else {
            argv[out++] = argv[i++];
            continue;
        }
        i += used;
    }
    argv[out] = NULL;
    *argc = out;
    if (o->from > o->to) {
        cli_error(cmd, "--from %" PRIu64 " is after --to %" PRIu64, o->from, o->to);
        return 2;
    }
    return 0;
}

/* ---- the filtering stage ---- */

typedef struct {
    ht_source *in;
    roi_opts o;
    int phase;          /* 0: before the region (markers), 1: inside, 2: past its end */
    int have_sec, sec_sent;
    ht_record sec;      /* the SECTION in force */
    int have_pending;
    ht_record pending;  /* the region's first record, held back behind its SECTION */
} roi_state;

static int in_region(roi_state *st, const ht_record *r)
{
    if (st->o.markers && r->kind == HT_REC_MARKER) {
        if (st->phase == 0 && r->value == st->o.mark_a) {
            st->phase = 1;
            return 0;
        }
        if (st->phase == 1 && r->value == st->o.mark_b) {
            st->phase = 2;
            return 0;
        }
    }
    if (st->o.markers && st->phase != 1)
        return 0;
    if (st->o.addrs && r->kind == HT_REC_SAMPLE && !roi_addr_in(&st->o, r->addr))
        return 0;
    /* Cycle bounds are tested record by record rather than ending at the first record past
     * --to: an every-access CSV need not be in cycle order.  An indexed .mtr stops by itself. */
    return r->cycle >= st->o.from && r->cycle <= st->o.to;
}

static int roi_next(ht_source *s, ht_record *r)
{
    roi_state *st = s->state;
    if (st->have_pending) {
        *r = st->pending;
        st->have_pending = 0;
        return 1;
    }
    while (st->phase < 2) {
        int got = ht_next(st->in, r);
        if (got <= 0) {
            if (got < 0)
                snprintf(s->err, sizeof s->err, "%s", st->in->err);
            return got;
        }
        if (r->kind == HT_REC_SECTION) {
            st->sec = *r;
            st->have_sec = 1;
            st->sec_sent = 0;
        }
        if (!in_region(st, r))
            continue;
        if (r->kind == HT_REC_SECTION) {
            st->sec_sent = 1;
        } else if (st->have_sec && !st->sec_sent) {
            /* The section this record belongs to began before the region: hand it on first. */
            st->pending = *r;
            st->have_pending = 1;
            *r = st->sec;
            st->sec_sent = 1;
        }
        return 1;
    }
    return 0;
}

static void roi_reset(roi_state *st)
{
    st->phase = st->o.markers ? 0 : 1;
    st->have_sec = st->sec_sent = st->have_pending = 0;
}

static int roi_rewind(ht_source *s)
{
    roi_state *st = s->state;
    roi_reset(st);
    if (ht_rewind(st->in)) {
        snprintf(s->err, sizeof s->err, "%s", st->in->err);
        return -1;
    }
    return 0;
}

static void roi_close(ht_source *s)
{
    roi_state *st = s->state;
    ht_close(st->in);
    free(st);
    free(s);
}

static void roi_describe(ht_source *s, FILE *out)
{
    roi_state *st = s->state;
    if (st->in->describe)
        st->in->describe(st->in, out);
    fprintf(out, "region:");
    if (st->o.from || st->o.to != UINT64_MAX)
        fprintf(out, " cycles %" PRIu64 "..%" PRIu64, st->o.from, st->o.to);
    if (st->o.markers)
        fprintf(out, " between markers 0x%" PRIx64 " and 0x%" PRIx64, st->o.mark_a, st->o.mark_b);
    if (st->o.addrs)
        fprintf(out, " addresses 0x%" PRIx64 "..0x%" PRIx64 " (end excluded)", st->o.addr_lo, st->o.addr_end);
    fputc('\n', out);
}

static const char *roi_header_info(ht_source *s)
{
    roi_state *st = s->state;
    return st->in->header_info ? st->in->header_info(st->in) : "";
}

ht_source *roi_filter(ht_source *inner, const roi_opts *o)
{
    ht_source *s = calloc(1, sizeof *s);
    roi_state *st = calloc(1, sizeof *st);
    if (!s || !st) {
        free(s);
        free(st);
        ht_close(inner);
        return NULL;
    }
    st->in = inner;
    st->o = *o;
    roi_reset(st);
    s->state = st;
    s->next = roi_next;
    s->rewind = roi_rewind;
    s->close = roi_close;
    s->describe = roi_describe;
    s->header_info = roi_header_info;
    snprintf(s->name, sizeof s->name, "%s", inner->name);
    return s;
}

ht_source *roi_open(const char *path, const roi_opts *o, int *indexed, char *err, size_t errlen)
{
    if (indexed)
        *indexed = 0;
    ht_source *src = trace_open(path, err, errlen);
    if (!src || !roi_active(o))
        return src;
    if (src->restrict_cycles && (o->from || o->to != UINT64_MAX)) {
        int r = src->restrict_cycles(src, o->from, o->to);
        if (r < 0) {
            snprintf(err, errlen, "%s", src->err);
            ht_close(src);
            return NULL;
        }
        if (indexed)
            *indexed = r ? 1 : -1;
    }
    ht_source *f = roi_filter(src, o);
    if (!f)
        snprintf(err, errlen, "%s: out of memory", path);
    return f;
}
