/* The RTL testbench: replays an access/register vector (tests/golden/README.md format) through
 * the Verilated trace unit, cycle by cycle, and writes what came out in the golden `.exp` format
 * (stream bytes, DROPPED/SAMPLES, the FIFO level and drained bytes of every cycle, the end cycle).
 * With an expected file it compares and reports the first difference, with the packets around
 * it when the stream differs.
 *
 *   mt_rtl_tb VECTOR [EXPECTED] [--fst FILE]      exit 0 = identical (or no EXPECTED given)
 *
 * The RTL has one MMIO port: a vector with two register writes in the same cycle cannot be
 * replayed on it and is reported as an error naming the line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_regs.h"
#include "rtl_model/sim/mt_rtl.h"
#include "rtl_model/sim/pktctx.h"

typedef struct {
    char *p;
    size_t n, cap;
} text_t;

static void put(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#include <stdarg.h>
static void put(text_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if (t->n + (size_t)k + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->n + (size_t)k + 1)
            cap *= 2;
        char *q = realloc(t->p, cap);
        if (!q) {
            fprintf(stderr, "mt_rtl_tb: out of memory\n");
            exit(2);
        }
        t->p = q;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->p + t->n, t->cap - t->n, fmt, ap);
    va_end(ap);
    t->n += (size_t)k;
}

typedef struct {
    mt_rtl *r;
    text_t cyc;       /* the "c" lines */
    uint8_t *bytes;   /* the whole stream */
    size_t n, cap;
} tb_t;

/* Cycles a unit may take after 'stop' to send its END and empty its FIFO: a FIFO of at most a
 * few KiB at >= 1 byte a cycle, and the reduce path's end (every undecided reference kept: at
 * most 2^10 entries at each of its ten sizes, a few cycles each) need well under 2^20; 2^24
 * leaves room and still ends a hung RTL within seconds.  MT_RTL_TB_STOP_LIMIT=N sets another
 * (the test of this error makes it small). */
static uint64_t stop_drain_limit(void)
{
    const char *e = getenv("MT_RTL_TB_STOP_LIMIT");
    char *end;
    unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;
    return e && *e && !*end && v ? (uint64_t)v : UINT64_C(1) << 24;
}

/* Completes the current cycle, recording its FIFO level and drained bytes. */
static void clock1(tb_t *tb)
{
    uint64_t now = mt_rtl_now(tb->r);
    unsigned level = mt_rtl_fifo_level(tb->r);
    mt_rtl_clock(tb->r, 1);
    uint8_t b[32];
    size_t k = mt_rtl_pop(tb->r, b, sizeof b);
    if (tb->n + k > tb->cap) {
        tb->cap = tb->cap ? tb->cap * 2 : 65536;
        tb->bytes = realloc(tb->bytes, tb->cap);
        if (!tb->bytes) {
            fprintf(stderr, "mt_rtl_tb: out of memory\n");
            exit(2);
        }
    }
    if (k) {
        memcpy(tb->bytes + tb->n, b, k);
        tb->n += k;
    }
    if (level) {
        put(&tb->cyc, "c %" PRIu64 " %u ", now, level);
        for (size_t i = 0; i < k; i++)
            put(&tb->cyc, "%02x", b[i]);
        put(&tb->cyc, "\n");
    }
}

static void advance(tb_t *tb, uint64_t cycle)
{
    while (mt_rtl_now(tb->r) < cycle)
        clock1(tb);
}

/* Runs the vector; fills out (the .exp text without its comment line). Returns 0 or -1. */
static int run(FILE *in, const char *name, const char *fst, text_t *out, tb_t *tb)
{
    unsigned depth = 4096, drain = 8;
    int started = 0, line = 0, stopped = 0;
    uint64_t end_cycle = 0, last_wr = UINT64_MAX;
    char buf[512];
    while (fgets(buf, sizeof buf, in)) {
        line++;
        char *h = strchr(buf, '#');
        if (h)
            *h = 0;
        char op[16];
        uint64_t a = 0, b = 0, c = 0, d = 0, e = 0;
        int k = sscanf(buf, "%15s %" SCNu64 " %" SCNx64 " %" SCNx64 " %" SCNu64 " %" SCNu64, op, &a, &b, &c, &d, &e);
        if (k <= 0)
            continue;
        if (!strcmp(op, "param")) {
            char key[32];
            unsigned v;
            if (started || sscanf(buf, "%*s %31s %u", key, &v) != 2 ||
                (strcmp(key, "depth") && strcmp(key, "drain"))) {
                fprintf(stderr, "mt_rtl_tb: %s:%d: bad 'param' line\n", name, line);
                return -1;
            }
            if (!strcmp(key, "depth"))
                depth = v;
            else
                drain = v;
            continue;
        }
        if (!started) {
            tb->r = mt_rtl_create(depth, drain, fst);
            if (!tb->r) {
                fprintf(stderr, "mt_rtl_tb: %s: cannot create the RTL (depth %u, drain %u%s)\n", name, depth,
                        drain, fst && !mt_rtl_has_fst() ? "; waveforms need the rtl-fst build" : "");
                return -1;
            }
            started = 1;
        }
        if (a < mt_rtl_now(tb->r)) {
            fprintf(stderr, "mt_rtl_tb: %s:%d: cycle %" PRIu64 " is in the past\n", name, line, a);
            return -1;
        }
        advance(tb, a);
        if (!strcmp(op, "w") && k == 4) {
            if (last_wr == a) {
                fprintf(stderr, "mt_rtl_tb: %s:%d: a second register write in cycle %" PRIu64
                        ": the RTL has one MMIO port (one access per clock)\n", name, line, a);
                return -1;
            }
            last_wr = a;
            mt_rtl_mmio_write(tb->r, a, (uint32_t)b, (uint32_t)c);
        } else if (!strcmp(op, "a") && k == 6) {
            mt_access acc = {.cycle = a, .addr = b & MT_PADDR_MASK, .write = (uint8_t)c, .size = 8,
                             .kind = (uint8_t)d, .tap = (uint8_t)e};
            if (d > 7 || e > 1 || mt_rtl_access(tb->r, &acc)) {
                fprintf(stderr, "mt_rtl_tb: %s:%d: access not accepted (kind 0..7, tap 0..1, one per cycle)\n",
                        name, line);
                return -1;
            }
        } else if (!strcmp(op, "stop") && k == 2) {
            if (last_wr == a) {
                fprintf(stderr, "mt_rtl_tb: %s:%d: 'stop' shares cycle %" PRIu64 " with a register write\n",
                        name, line, a);
                return -1;
            }
            mt_rtl_mmio_write(tb->r, a, MT_REG_CTRL, 0);
            last_wr = a;
            /* clock until the END is out and the FIFO empty (STATUS read at the start of each
             * cycle); a unit that never gets there is a broken RTL, an error here rather than a
             * testbench that spins until the test runner's timeout */
            const uint64_t limit = stop_drain_limit();
            for (uint64_t waited = 0;; waited++) {
                if (waited == limit) {
                    fprintf(stderr, "mt_rtl_tb: %s:%d: the unit is still busy or its FIFO not empty %" PRIu64
                                    " cycles after 'stop' (a hang in the RTL?)\n",
                            name, line, limit);
                    return -1;
                }
                clock1(tb);
                uint32_t s = mt_rtl_mmio_read(tb->r, mt_rtl_now(tb->r), MT_REG_STATUS);
                last_wr = mt_rtl_now(tb->r);
                if (!(s & MT_STATUS_BUSY) && (s & MT_STATUS_FIFO_EMPTY))
                    break;
            }
            end_cycle = mt_rtl_now(tb->r);
            stopped = 1;
        } else {
            fprintf(stderr, "mt_rtl_tb: %s:%d: malformed line\n", name, line);
            return -1;
        }
    }
    if (!started || !stopped) {
        fprintf(stderr, "mt_rtl_tb: %s: no 'stop' line\n", name);
        return -1;
    }
    /* counters of the last session, read on the idle unit (one register per cycle) */
    uint64_t t = mt_rtl_now(tb->r) + 1;
    uint32_t dropped = mt_rtl_mmio_read(tb->r, t, MT_REG_DROPPED);
    uint32_t lo = mt_rtl_mmio_read(tb->r, t + 1, MT_REG_SAMPLES_LO);
    uint32_t hi = mt_rtl_mmio_read(tb->r, t + 2, MT_REG_SAMPLES_HI);
    mt_rtl_clock(tb->r, 1);
    put(out, "bytes %zu\n", tb->n);
    for (size_t i = 0; i < tb->n; i += 32) {
        put(out, "s ");
        for (size_t j = i; j < tb->n && j < i + 32; j++)
            put(out, "%02x", tb->bytes[j]);
        put(out, "\n");
    }
    put(out, "dropped %u samples %" PRIu64 "\n", dropped, ((uint64_t)hi << 32) | lo);
    put(out, "%s", tb->cyc.p ? tb->cyc.p : "");
    put(out, "end %" PRIu64 "\n", end_cycle);
    return 0;
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, len = 0;
    char *p = malloc(cap + 1);
    size_t k;
    while (p && (k = fread(p + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) {
            char *q = realloc(p, cap * 2 + 1);
            if (!q) {
                free(p);
                p = NULL;
                break;
            }
            p = q;
            cap *= 2;
        }
    }
    fclose(f);
    if (p)
        p[len] = 0;
    *n = len;
    return p;
}

/* Hex digits of the "s" lines of an .exp text back to bytes. */
static size_t stream_of(const char *txt, uint8_t *out, size_t cap)
{
    size_t n = 0;
    for (const char *l = txt; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (l[0] != 's' || l[1] != ' ')
            continue;
        for (const char *p = l + 2; p[0] && p[0] != '\n' && p[1] && n < cap; p += 2) {
            unsigned v;
            if (sscanf(p, "%2x", &v) != 1)
                break;
            out[n++] = (uint8_t)v;
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *vec = NULL, *exp = NULL, *fst = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--fst") && i + 1 < argc)
            fst = argv[++i];
        else if (!vec)
            vec = argv[i];
        else if (!exp)
            exp = argv[i];
        else {
            fprintf(stderr, "usage: mt_rtl_tb VECTOR [EXPECTED] [--fst FILE]\n");
            return 2;
        }
    }
    if (!vec) {
        fprintf(stderr, "usage: mt_rtl_tb VECTOR [EXPECTED] [--fst FILE]\n");
        return 2;
    }
    FILE *in = fopen(vec, "r");
    if (!in) {
        fprintf(stderr, "mt_rtl_tb: %s: cannot open\n", vec);
        return 2;
    }
    tb_t tb = {0};
    text_t got = {0};
    int rc = run(in, vec, fst, &got, &tb);
    fclose(in);
    if (rc == 0 && !exp)
        fwrite(got.p, 1, got.n, stdout);
    if (rc == 0 && exp) {
        size_t en;
        char *want = slurp(exp, &en);
        if (!want) {
            fprintf(stderr, "mt_rtl_tb: %s: cannot open\n", exp);
            rc = 2;
        } else {
            /* skip the expected file's comment lines */
            const char *w = want;
            while (*w == '#') {
                const char *nl = strchr(w, '\n');
                w = nl ? nl + 1 : w + strlen(w);
            }
            if (strcmp(w, got.p) != 0) {
                const char *g = got.p, *x = w;
                unsigned lineno = 1;
                while (*g && *g == *x) {
                    if (*g == '\n')
                        lineno++;
                    g++;
                    x++;
                }
                while (g > got.p && g[-1] != '\n')
                    g--, x--;
                fprintf(stderr, "mt_rtl_tb: %s: RTL differs from %s at output line %u:\n  expected: %.*s\n  rtl:      %.*s\n",
                        vec, exp, lineno, (int)strcspn(x, "\n"), x, (int)strcspn(g, "\n"), g);
                size_t cap = tb.n + 65536;
                uint8_t *eb = malloc(cap);
                if (eb) {
                    size_t n = stream_of(w, eb, cap);
                    size_t at = 0;
                    while (at < n && at < tb.n && eb[at] == tb.bytes[at])
                        at++;
                    if (at < n || at < tb.n) {
                        fprintf(stderr, "  stream: expected %zu bytes, rtl %zu, first difference at byte %zu\n", n,
                                tb.n, at);
                        pktctx_print(stderr, "expected", eb, n, at, 3);
                        pktctx_print(stderr, "rtl     ", tb.bytes, tb.n, at, 3);
                    }
                    free(eb);
                }
                rc = 1;
            }
            free(want);
        }
    }
    if (tb.r)
        mt_rtl_destroy(tb.r);
    free(tb.bytes);
    free(tb.cyc.p);
    free(got.p);
    return rc < 0 ? 1 : rc;
}
