/* RowScope's open-page DRAM row-buffer model (seed 002): an address maps to (bank, row, column);
 * each bank keeps one row open.  An access to an EMPTY bank is a miss (activate); to the open
 * row, a hit; to another row, a conflict (precharge + activate).  Rows are never closed early
 * (open-page policy only, as RowScope).
 *
 * Mappings (addresses are taken relative to `base`):
 *   rowscope      RowScope's bit-interleaved scheme: column = low bits (row size), then the bank,
 *                 then the row:  col = a % R, bank = (a / R) % B, row = a / (R * B).  Consecutive
 *                 rows of the address space go to consecutive banks.
 *   bank-row-col  bank in the top bits: each bank is one contiguous 1/B of `mem_bytes`.
 *   xor           permutation-based interleaving (Zhang, Zhu, Zhang, MICRO 2000): rowscope with
 *                 bank = ((a / R) ^ row) % B, spreading row conflicts of power-of-two strides. */
#ifndef HOST_ROWBUF_H
#define HOST_ROWBUF_H

#include <stdint.h>

typedef enum { RB_MAP_ROWSCOPE = 0, RB_MAP_BANK_ROW_COL = 1, RB_MAP_XOR = 2, RB_MAP_COUNT } rb_mapping;
typedef enum { RB_HIT = 0, RB_MISS = 1, RB_CONFLICT = 2 } rb_outcome;

typedef struct {
    uint64_t row_size;   /* bytes */
    uint32_t banks;
    rb_mapping mapping;
    uint64_t mem_bytes;  /* bank-row-col only */
    uint64_t base;
} rb_config;

typedef struct {
    uint64_t hits, misses, conflicts;
} rb_counts;

typedef struct rowbuf rowbuf;

const char *rb_mapping_name(rb_mapping m);
int rb_parse_mapping(const char *s, rb_mapping *out);
/* 0 ok, -1 with a reason */
int rb_check_config(const rb_config *c, const char **why);
void rb_map(const rb_config *c, uint64_t addr, uint32_t *bank, uint64_t *row, uint64_t *col);

rowbuf *rowbuf_new(const rb_config *c);
void rowbuf_free(rowbuf *r);
rb_outcome rowbuf_access(rowbuf *r, uint64_t addr);
const rb_counts *rowbuf_bank(const rowbuf *r, uint32_t bank);
rb_counts rowbuf_total(const rowbuf *r);

/* RowScope's closed form for a sequential sweep with `stride` elements of `elem` bytes:
 * hit rate = 1 - stride * elem / row_size (0 when the stride reaches a row). */
double rb_stride_hit_rate_model(uint64_t stride, uint64_t elem, uint64_t row_size);

#endif
