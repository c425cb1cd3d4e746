/* Records, address formats and the in-memory source. */
#include "host/sample.h"

#include <stdlib.h>
#include <string.h>

#define PADDR_MASK ((UINT64_C(1) << 56) - 1)

static unsigned damaged_inputs;

void ht_note_damaged_input(void) { damaged_inputs++; }
unsigned ht_damaged_inputs(void) { return damaged_inputs; }

void ht_close(ht_source *s)
{
    if (s)
        s->close(s);
}

int ht_next_sample(ht_source *s, ht_record *r)
{
    int rc;
    while ((rc = s->next(s, r)) == 1)
        if (r->kind == HT_REC_SAMPLE)
            return 1;
    return rc;
}

uint64_t ht_addr_for_format(uint64_t addr, ht_format fmt)
{
    addr &= PADDR_MASK;
    switch (fmt) {
    case HT_FMT_FULL: return addr;
    case HT_FMT_LINE: return addr & ~UINT64_C(63);
    case HT_FMT_48: return addr & ~UINT64_C(0xfff);
    case HT_FMT_32: return addr & ~((UINT64_C(1) << 30) - 1);
    default: return addr;
    }
}

uint64_t ht_encode48(uint64_t addr, int write)
{
    return ((uint64_t)(write != 0) << 47) | ((addr & PADDR_MASK) >> 12);
}

uint64_t ht_decode48_addr(uint64_t word)
{
    return (word & ((UINT64_C(1) << 44) - 1)) << 12;
}

uint32_t ht_encode32(uint64_t addr, int write)
{
    return ((uint32_t)(write != 0) << 31) | (uint32_t)((addr & PADDR_MASK) >> 30);
}

uint64_t ht_decode32_addr(uint32_t word)
{
    return (uint64_t)(word & ((UINT32_C(1) << 26) - 1)) << 30;
}

uint64_t ht_format_value(const ht_record *r)
{
    switch (r->format) {
    case HT_FMT_48: return ht_encode48(r->addr, r->write);
    case HT_FMT_32: return ht_encode32(r->addr, r->write);
    case HT_FMT_LINE: return r->addr >> 6;
    default: return r->addr;
    }
}

const char *ht_format_name(ht_format f)
{
    static const char *const names[HT_FMT_COUNT] = {"full", "line", "48", "32"};
    return (unsigned)f < HT_FMT_COUNT ? names[f] : "?";
}

const char *ht_section_name(ht_section s)
{
    return s == HT_SEC_BURST ? "burst" : s == HT_SEC_SPAN ? "span" : "?";
}

const char *ht_record_kind_name(ht_record_kind k)
{
    static const char *const names[HT_REC_COUNT] = {"sample", "section", "idle",
                                                    "overflow", "marker", "loss"};
    return (unsigned)k < HT_REC_COUNT ? names[k] : "?";
}

int ht_parse_format(const char *s, ht_format *out)
{
    for (int f = 0; f < HT_FMT_COUNT; f++)
        if (strcmp(s, ht_format_name((ht_format)f)) == 0) {
            *out = (ht_format)f;
            return 0;
        }
    return -1;
}

ht_record ht_full_sample(uint64_t cycle, uint64_t addr, int write)
{
    ht_record r = {.cycle = cycle, .addr = addr & PADDR_MASK, .kind = HT_REC_SAMPLE,
                   .write = (uint8_t)(write != 0), .format = HT_FMT_FULL,
                   .section = HT_SEC_BURST};
    return r;
}

typedef struct {
    const ht_record *recs;
    size_t n, pos;
} array_state;

static int array_next(ht_source *s, ht_record *r)
{
    array_state *a = s->state;
    if (a->pos >= a->n)
        return 0;
    *r = a->recs[a->pos++];
    return 1;
}

static int array_rewind(ht_source *s)
{
    ((array_state *)s->state)->pos = 0;
    return 0;
}

static void array_close(ht_source *s)
{
    free(s->state);
    free(s);
}

ht_source *ht_array_source(const ht_record *recs, size_t n, const char *name)
{
    ht_source *s = calloc(1, sizeof *s);
    array_state *a = calloc(1, sizeof *a);
    if (!s || !a) {
        free(s);
        free(a);
        return NULL;
    }
    a->recs = recs;
    a->n = n;
    s->state = a;
    s->next = array_next;
    s->rewind = array_rewind;
    s->close = array_close;
    snprintf(s->name, sizeof s->name, "%s", name ? name : "(memory)");
    return s;
}
