/* Trace readers and writers by container (see header). */
#include "host/traceio.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "host/mtrio.h"
#include "mt_outfile.h"
#include "mt_paths.h"

static int has_suffix(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcasecmp(s + a - b, suf) == 0;
}

static void seterr(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

/* ---------------- CSV ---------------- */

void csv_write_access(FILE *f, uint64_t cycle, uint64_t addr, int write)
{
    fprintf(f, "%" PRIu64 ",0x%" PRIx64 ",%c\n", cycle, addr, write ? 'W' : 'R');
}

void csv_write_record(FILE *f, const ht_record *r)
{
    if (r->kind == HT_REC_SAMPLE)
        fprintf(f, "%" PRIu64 ",sample,%s,%s,%c,0x%" PRIx64 ",0x%" PRIx64 "\n", r->cycle,
                ht_section_name((ht_section)r->section), ht_format_name((ht_format)r->format),
                r->write ? 'W' : 'R', r->addr, ht_format_value(r));
    else
        fprintf(f, "%" PRIu64 ",%s,%s,%s,,,%" PRIu64 "\n", r->cycle,
                ht_record_kind_name((ht_record_kind)r->kind), ht_section_name((ht_section)r->section),
                r->kind == HT_REC_SECTION ? ht_format_name((ht_format)r->format) : "", r->value);
}

static const char *skip_ws(const char *p)
{
    while (*p == ' ' || *p == '\t')
        p++;
    return p;
}

static int parse_field_u64(const char **pp, uint64_t *out)
{
    const char *p = skip_ws(*pp);
    int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    if (!(hex ? isxdigit((unsigned char)p[2]) : isdigit((unsigned char)p[0])))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(p, &end, hex ? 16 : 10);
    if (errno)
        return -1;
    *out = v;
    *pp = skip_ws(end);
    return 0;
}

int csv_parse_access(const char *line, uint64_t *cycle, uint64_t *addr, int *write,
                     const char **why)
{
    const char *p = line;
    if (parse_field_u64(&p, cycle) != 0) {
        *why = "cycle is not a decimal or 0x-hex number";
        return -1;
    }
    if (*p++ != ',') {
        *why = "expected 3 fields cycle,address,rw";
        return -1;
    }
    if (parse_field_u64(&p, addr) != 0) {
        *why = "address is not a decimal or 0x-hex number";
        return -1;
    }
    if (*addr >> 56) {
        *why = "address does not fit in 56 bits";
        return -1;
    }
    if (*p++ != ',') {
        *why = "expected 3 fields cycle,address,rw";
        return -1;
    }
    p = skip_ws(p);
    if (*p == 'R' || *p == 'r')
        *write = 0;
    else if (*p == 'W' || *p == 'w')
        *write = 1;
    else {
        *why = "rw must be R or W";
        return -1;
    }
    p = skip_ws(p + 1);
    if (*p && *p != '\n' && *p != '\r') {
        *why = "unexpected text after the rw field";
        return -1;
    }
    return 0;
}

typedef struct {
    FILE *f;
    uint64_t line, last_cycle;
    int rich; /* the 7-column form of `decode --format csv` (keeps sections and formats) */
    char buf[512];
} csv_state;

#define RICH_HEADER "cycle,kind,section,format,rw,address,value"

/* One row of the 7-column form.  0 ok, -1 with a reason. */
static int parse_rich(const char *p, ht_record *r, const char **why)
{
    char f[7][64];
    int nf = 0;
    const char *start = p;
    for (;; p++) {
        if (*p == ',' || *p == '\n' || *p == '\r' || *p == 0) {
            size_t len = (size_t)(p - start);
            if (nf == 7 || len >= sizeof f[0]) {
                *why = "expected 7 fields cycle,kind,section,format,rw,address,value";
                return -1;
            }
            memcpy(f[nf], start, len);
            f[nf++][len] = 0;
            if (*p != ',')
                break;
            start = p + 1;
        }
    }
    if (nf != 7) {
        *why = "expected 7 fields cycle,kind,section,format,rw,address,value";
        return -1;
    }
    memset(r, 0, sizeof *r);
    const char *q = f[0];
    if (parse_field_u64(&q, &r->cycle) || *q) { *why = "cycle is not a number"; return -1; }
    int kind = -1;
    for (int k = 0; k < HT_REC_COUNT; k++)
        if (!strcmp(f[1], ht_record_kind_name((ht_record_kind)k)))
            kind = k;
    if (kind < 0) { *why = "unknown record kind"; return -1; }
    r->kind = (uint8_t)kind;
    if (!strcmp(f[2], "burst")) r->section = HT_SEC_BURST;
    else if (!strcmp(f[2], "span")) r->section = HT_SEC_SPAN;
    else if (kind == HT_REC_SAMPLE || kind == HT_REC_SECTION) { *why = "section must be burst or span"; return -1; }
    if (kind == HT_REC_SAMPLE || kind == HT_REC_SECTION) {
        ht_format fm;
        if (ht_parse_format(f[3], &fm)) { *why = "format must be full, line, 48 or 32"; return -1; }
        r->format = (uint8_t)fm;
    }
    if (kind == HT_REC_SAMPLE) {
        if (!strcmp(f[4], "R")) r->write = 0;
        else if (!strcmp(f[4], "W")) r->write = 1;
        else { *why = "rw must be R or W"; return -1; }
        q = f[5];
        if (parse_field_u64(&q, &r->addr) || *q || r->addr >> 56) { *why = "address is not a 56-bit number"; return -1; }
        r->addr = ht_addr_for_format(r->addr, (ht_format)r->format);
    } else {
        q = f[6];
        if (parse_field_u64(&q, &r->value) || *q) { *why = "value is not a number"; return -1; }
    }
    return 0;
}

static int csv_next(ht_source *s, ht_record *r)
{
    csv_state *c = s->state;
    for (;;) {
        if (!fgets(c->buf, sizeof c->buf, c->f)) {
            if (ferror(c->f)) {
                seterr(s->err, sizeof s->err, "%s: read error", s->name);
                return -1;
            }
            if (c->line == 0) { /* not even the header: no trace at all (an .mtr says "empty" too) */
                seterr(s->err, sizeof s->err, "%s: empty (not even the header line 'cycle,address,rw')", s->name);
                return -1;
            }
            return 0;
        }
        c->line++;
        size_t len = strlen(c->buf);
        if (len == sizeof c->buf - 1 && c->buf[len - 1] != '\n') {
            seterr(s->err, sizeof s->err, "%s:%" PRIu64 ": line too long", s->name, c->line);
            return -1;
        }
        const char *p = skip_ws(c->buf);
        if (*p == '\n' || *p == '\r' || *p == 0 || *p == '#')
            continue; /* blank lines and comments */
        if (c->line == 1) {
            if (strncasecmp(p, RICH_HEADER, strlen(RICH_HEADER)) == 0) {
                c->rich = 1;
                continue;
            }
            if (strncasecmp(p, "cycle,address,rw", 16) != 0) {
                seterr(s->err, sizeof s->err,
                       "%s:1: expected the header line 'cycle,address,rw'", s->name);
                return -1;
            }
            continue;
        }
        uint64_t cyc, addr;
        int w;
        const char *why;
        if (c->rich) {
            if (parse_rich(p, r, &why)) {
                seterr(s->err, sizeof s->err, "%s:%" PRIu64 ": %s", s->name, c->line, why);
                return -1;
            }
            if (r->cycle < c->last_cycle && r->kind == HT_REC_SAMPLE) {
                seterr(s->err, sizeof s->err, "%s:%" PRIu64 ": cycle %" PRIu64
                       " goes backwards (previous %" PRIu64 ")", s->name, c->line, r->cycle, c->last_cycle);
                return -1;
            }
            if (r->kind == HT_REC_SAMPLE)
                c->last_cycle = r->cycle;
            return 1;
        }
        if (csv_parse_access(p, &cyc, &addr, &w, &why) != 0) {
            seterr(s->err, sizeof s->err, "%s:%" PRIu64 ": %s", s->name, c->line, why);
            return -1;
        }
        if (cyc < c->last_cycle) {
            seterr(s->err, sizeof s->err, "%s:%" PRIu64 ": cycle %" PRIu64
                   " goes backwards (previous %" PRIu64 ")", s->name, c->line, cyc, c->last_cycle);
            return -1;
        }
        c->last_cycle = cyc;
        *r = ht_full_sample(cyc, addr, w);
        return 1;
    }
}

static int csv_rewind(ht_source *s)
{
    csv_state *c = s->state;
    if (fseek(c->f, 0, SEEK_SET) != 0) {
        seterr(s->err, sizeof s->err, "%s: cannot rewind (a second pass needs a regular file)",
               s->name);
        return -1;
    }
    c->line = 0;
    c->last_cycle = 0;
    return 0;
}

static void csv_close(ht_source *s)
{
    csv_state *c = s->state;
    if (c->f && c->f != stdin)
        fclose(c->f);
    free(c);
    free(s);
}

ht_source *trace_open_csv(const char *path, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    if (!f) {
        seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    ht_source *s = calloc(1, sizeof *s);
    csv_state *c = calloc(1, sizeof *c);
    if (!s || !c) {
        free(s);
        free(c);
        if (f != stdin)
            fclose(f);
        seterr(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    c->f = f;
    s->state = c;
    s->next = csv_next;
    s->rewind = csv_rewind;
    s->close = csv_close;
    snprintf(s->name, sizeof s->name, "%s", path);
    return s;
}

ht_source *trace_open(const char *path, char *err, size_t errlen)
{
    if (has_suffix(path, ".csv") || !strcmp(path, "-"))
        return trace_open_csv(path, err, errlen);
    if (has_suffix(path, ".mtr") || has_suffix(path, ".mtp"))
        return mtr_open(path, err, errlen);
    /* Unknown name: look at the content. */
    FILE *f = fopen(path, "r");
    if (!f) {
        seterr(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    char head[32] = {0};
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    if (n >= 16 && (strncasecmp(head, "cycle,address,rw", 16) == 0 || strncasecmp(head, "cycle,kind,", 11) == 0))
        return trace_open_csv(path, err, errlen);
    return mtr_open(path, err, errlen);
}

/* ---------------- writers ---------------- */

struct trace_writer {
    char path[512];
    int rich;           /* CSV in the 7-column form (sampled traces) */
    FILE *csv;          /* CSV output (csv_out.f) */
    mt_outfile csv_out; /* renamed into place by trace_finish */
    mtr_writer *mtr;    /* container output */
    char err[512];
};

trace_writer *trace_create(const char *path, const trace_writer_opts *o, char *err, size_t errlen)
{
    trace_writer *w = calloc(1, sizeof *w);
    if (!w) {
        seterr(err, errlen, "%s: out of memory", path);
        return NULL;
    }
    snprintf(w->path, sizeof w->path, "%s", path);
    if (has_suffix(path, ".csv") || !strcmp(path, "-")) {
        if (mt_outfile_open(&w->csv_out, path, "w", 1, err, errlen) < 0) {
            free(w);
            return NULL;
        }
        w->csv = w->csv_out.f;
        w->rich = o->format != HT_FMT_FULL || o->rate != 1;
        fputs(w->rich ? RICH_HEADER "\n" : "cycle,address,rw\n", w->csv);
        return w;
    }
    w->mtr = mtr_create(path, o, err, errlen);
    if (!w->mtr) {
        free(w);
        return NULL;
    }
    return w;
}

int trace_write(trace_writer *w, const ht_record *r)
{
    if (w->csv) {
        if (w->rich)
            csv_write_record(w->csv, r);
        else if (r->kind == HT_REC_SAMPLE)
            csv_write_access(w->csv, r->cycle, r->addr, r->write);
        return 0;
    }
    if (mtr_write(w->mtr, r) != 0) {
        snprintf(w->err, sizeof w->err, "%s", mtr_writer_error(w->mtr));
        return -1;
    }
    return 0;
}

const char *trace_writer_error(const trace_writer *w)
{
    return w->err;
}

int trace_finish(trace_writer *w, char *err, size_t errlen)
{
    int rc = 0;
    if (w->csv) {
        if (mt_outfile_commit(&w->csv_out, err, errlen) < 0)
            rc = -1;
    } else {
        rc = mtr_finish(w->mtr, err, errlen);
    }
    free(w);
    return rc;
}

void trace_abort(trace_writer *w)
{
    if (!w)
        return;
    if (w->csv) {
        mt_outfile_discard(&w->csv_out);
    } else {
        mtr_abort(w->mtr);
    }
    free(w);
}
