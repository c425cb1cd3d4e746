/* Packet boundaries for divergence reports: see pktctx.h. */
#include "rtl_model/sim/pktctx.h"

/* Length of a LEB at p (at most max bytes), 0 if cut or too long. */
static size_t leb(const uint8_t *p, size_t n, size_t max)
{
    for (size_t i = 0; i < n && i < max; i++)
        if (!(p[i] & 0x80))
            return i + 1;
    return 0;
}

/* Adds the lengths of `k` consecutive LEB fields after offset `at`. */
static size_t lebs(const uint8_t *p, size_t n, size_t at, unsigned k)
{
    for (unsigned i = 0; i < k; i++) {
        if (at >= n)
            return 0;
        size_t l = leb(p + at, n - at, 10);
        if (!l)
            return 0;
        at += l;
    }
    return at;
}

size_t pktctx_len(const uint8_t *p, size_t n)
{
    if (!n)
        return 0;
    uint8_t h = p[0];
    switch (h) {
    case 0x00: return n >= 7 ? lebs(p, n, 7, 2) : 0;
    case 0x01: case 0x03: case 0x04: return lebs(p, n, 1, 1);
    case 0x02: return n >= 2 ? lebs(p, n, 2, 2) : 0;
    case 0x05: return lebs(p, n, 1, 2);
    default: break;
    }
    if (!(h & 0x80) || (h & 1))
        return 0;
    unsigned op = (h >> 4) & 7;
    unsigned k = ((h >> 2) & 1) + ((h >> 1) & 1) + (op >= 3 ? 1 : 0);
    if (op > 4)
        return 0;
    return k ? lebs(p, n, 1, k) : 1;
}

const char *pktctx_name(uint8_t h)
{
    static const char *names[] = {"SYNC", "RUN", "SECTION", "OVERFLOW", "MARKER", "END"};
    if (h < 6)
        return names[h];
    if (!(h & 0x80))
        return "reserved";
    static const char *ops[] = {"SAMPLE/MATCH0", "SAMPLE/MATCH1", "SAMPLE/MATCH2", "SAMPLE/DELTA",
                                "SAMPLE/FULL", "SAMPLE/res5", "SAMPLE/res6", "SAMPLE/res7"};
    return ops[(h >> 4) & 7];
}

void pktctx_print(FILE *f, const char *label, const uint8_t *p, size_t n, size_t at, unsigned before)
{
    size_t starts[64];
    unsigned ns = 0;
    size_t off = 0;
    while (off < n && off <= at) {
        starts[ns % 64] = off;
        ns++;
        size_t l = pktctx_len(p + off, n - off);
        if (!l)
            break;
        off += l;
    }
    unsigned first = ns > before + 1 ? ns - before - 1 : 0;
    for (unsigned i = first; i < ns; i++) {
        size_t s = starts[i % 64];
        size_t l = pktctx_len(p + s, n - s);
        size_t show = l ? l : (n - s < 16 ? n - s : 16);
        fprintf(f, "  %s @%zu %-14s", label, s, pktctx_name(p[s]));
        for (size_t j = 0; j < show; j++)
            fprintf(f, " %02x", p[s + j]);
        fprintf(f, "%s\n", l ? "" : " (malformed or cut)");
    }
}
