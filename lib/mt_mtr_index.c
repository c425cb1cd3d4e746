/* The .mtr index and footer: see mt_mtr_index.h. */
#include "mt_mtr_index.h"

#include <stdlib.h>
#include <string.h>

#include "mt_le.h"

uint8_t *mt_mtr_index_encode(const mt_frame_index *idx, size_t n, size_t *len)
{
    size_t plen = 16 + n * MT_MTR_IDX_ENTRY_WORDS * 8;
    uint8_t *pl = malloc(plen);
    if (!pl)
        return NULL;
    memcpy(pl, "MTRIDX01", 8);
    mt_put_u64(pl + 8, n);
    for (size_t i = 0; i < n; i++) {
        const mt_frame_index *e = &idx[i];
        uint64_t v[MT_MTR_IDX_ENTRY_WORDS] = {e->file_offset, e->comp_size,   e->stream_offset, e->stream_bytes,
                                              e->first_cycle, e->last_cycle, e->samples};
        for (int k = 0; k < MT_MTR_IDX_ENTRY_WORDS; k++)
            mt_put_u64(pl + 16 + (i * MT_MTR_IDX_ENTRY_WORDS + (size_t)k) * 8, v[k]);
    }
    *len = plen;
    return pl;
}

int mt_mtr_index_decode(const uint8_t *p, size_t n, mt_frame_index **out, size_t *count)
{
    if (n < 16 || memcmp(p, "MTRIDX01", 8))
        return -1;
    uint64_t cnt = mt_get_u64(p + 8);
    if (cnt > (n - 16) / (MT_MTR_IDX_ENTRY_WORDS * 8))
        return -1;
    mt_frame_index *idx = calloc(cnt ? cnt : 1, sizeof *idx);
    if (!idx)
        return -1;
    for (uint64_t i = 0; i < cnt; i++) {
        const uint8_t *e = p + 16 + i * MT_MTR_IDX_ENTRY_WORDS * 8;
        mt_frame_index *x = &idx[i];
        x->file_offset = mt_get_u64(e);
        x->comp_size = mt_get_u64(e + 8);
        x->stream_offset = mt_get_u64(e + 16);
        x->stream_bytes = mt_get_u64(e + 24);
        x->first_cycle = mt_get_u64(e + 32);
        x->last_cycle = mt_get_u64(e + 40);
        x->samples = mt_get_u64(e + 48);
    }
    *out = idx;
    *count = cnt;
    return 0;
}

void mt_mtr_footer_encode(uint8_t out[MT_MTR_FOOT_PAYLOAD], uint64_t idx_off)
{
    mt_put_u64(out, idx_off);
    memcpy(out + 8, "MTRFOOT1", 8);
}

int mt_mtr_footer_decode(const uint8_t ft[MT_MTR_FOOT_BYTES], uint64_t *idx_off)
{
    if (mt_get_u32(ft) != MT_MTR_MAGIC_FOOT || mt_get_u32(ft + 4) != MT_MTR_FOOT_PAYLOAD ||
        memcmp(ft + 16, "MTRFOOT1", 8))
        return -1;
    *idx_off = mt_get_u64(ft + 8);
    return 0;
}
