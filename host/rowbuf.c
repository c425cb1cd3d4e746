#include "host/rowbuf.h"

#include <stdlib.h>
#include <string.h>

struct rowbuf {
    rb_config cfg;
    uint64_t *open;   /* open row + 1 per bank, 0 = EMPTY */
    rb_counts *counts;
};

const char *rb_mapping_name(rb_mapping m)
{
    static const char *const names[RB_MAP_COUNT] = {"rowscope", "bank-row-col", "xor"};
    return (unsigned)m < RB_MAP_COUNT ? names[m] : "?";
}

int rb_parse_mapping(const char *s, rb_mapping *out)
{
    for (int m = 0; m < RB_MAP_COUNT; m++)
        if (!strcmp(s, rb_mapping_name((rb_mapping)m))) {
            *out = (rb_mapping)m;
            return 0;
        }
    return -1;
}

int rb_check_config(const rb_config *c, const char **why)
{
    if (c->row_size == 0) { *why = "row size must be positive"; return -1; }
    if (c->banks == 0 || c->banks > 4096) { *why = "banks must be 1..4096"; return -1; }
    if (c->mapping == RB_MAP_BANK_ROW_COL &&
        (c->mem_bytes == 0 || c->mem_bytes % ((uint64_t)c->banks * c->row_size))) {
        *why = "bank-row-col needs a memory size that is a multiple of banks x row size";
        return -1;
    }
    return 0;
}

void rb_map(const rb_config *c, uint64_t addr, uint32_t *bank, uint64_t *row, uint64_t *col)
{
    uint64_t a = addr - c->base; /* wraps for addresses below base: still a valid mapping */
    uint64_t line = a / c->row_size;
    *col = a % c->row_size;
    switch (c->mapping) {
    case RB_MAP_BANK_ROW_COL: {
        uint64_t per_bank = c->mem_bytes / c->banks;
        *bank = (uint32_t)((a / per_bank) % c->banks);
        *row = (a % per_bank) / c->row_size;
        break;
    }
    case RB_MAP_XOR:
        *row = line / c->banks;
        *bank = (uint32_t)((line ^ *row) % c->banks);
        break;
    default:
        *bank = (uint32_t)(line % c->banks);
        *row = line / c->banks;
        break;
    }
}

rowbuf *rowbuf_new(const rb_config *c)
{
    const char *why;
    if (rb_check_config(c, &why))
        return NULL;
    rowbuf *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->cfg = *c;
    r->open = calloc(c->banks, sizeof *r->open);
    r->counts = calloc(c->banks, sizeof *r->counts);
    if (!r->open || !r->counts) {
        rowbuf_free(r);
        return NULL;
    }
    return r;
}

void rowbuf_free(rowbuf *r)
{
    if (!r)
        return;
    free(r->open);
    free(r->counts);
    free(r);
}

rb_outcome rowbuf_access(rowbuf *r, uint64_t addr)
{
    uint32_t bank;
    uint64_t row, col;
    rb_map(&r->cfg, addr, &bank, &row, &col);
    rb_outcome o;
    if (r->open[bank] == 0) {
        o = RB_MISS;
        r->counts[bank].misses++;
    } else if (r->open[bank] == row + 1) {
        o = RB_HIT;
        r->counts[bank].hits++;
    } else {
        o = RB_CONFLICT;
        r->counts[bank].conflicts++;
    }
    r->open[bank] = row + 1;
    return o;
}

const rb_counts *rowbuf_bank(const rowbuf *r, uint32_t bank)
{
    return &r->counts[bank];
}

rb_counts rowbuf_total(const rowbuf *r)
{
    rb_counts t = {0, 0, 0};
    for (uint32_t b = 0; b < r->cfg.banks; b++) {
        t.hits += r->counts[b].hits;
        t.misses += r->counts[b].misses;
        t.conflicts += r->counts[b].conflicts;
    }
    return t;
}

double rb_stride_hit_rate_model(uint64_t stride, uint64_t elem, uint64_t row_size)
{
    double h = 1.0 - (double)(stride * elem) / (double)row_size;
    return h > 0 ? h : 0;
}
