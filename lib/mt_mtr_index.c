/* The .mtr index and footer: see mt_mtr_index.h. */
#include "mt_mtr_index.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_crc32c.h"
#include "mt_le.h"

uint8_t *mt_mtr_index_encode(const mt_frame_index *idx, size_t n, size_t *len)
{
    size_t body = 16 + n * MT_MTR_IDX_ENTRY_WORDS * 8;
    uint8_t *pl = malloc(body + 4);
    if (!pl)
        return NULL;
    memcpy(pl, "MTRIDX02", 8);
    mt_put_u64(pl + 8, n);
    for (size_t i = 0; i < n; i++) {
        const mt_frame_index *e = &idx[i];
        uint64_t v[MT_MTR_IDX_ENTRY_WORDS] = {e->file_offset, e->comp_size,   e->stream_offset, e->stream_bytes,
                                              e->first_cycle, e->last_cycle, e->samples};
        for (int k = 0; k < MT_MTR_IDX_ENTRY_WORDS; k++)
            mt_put_u64(pl + 16 + (i * MT_MTR_IDX_ENTRY_WORDS + (size_t)k) * 8, v[k]);
    }
    mt_put_u32(pl + body, mt_crc32c(pl, body));
    *len = body + 4;
    return pl;
}

int mt_mtr_index_decode(const uint8_t *p, size_t n, mt_frame_index **out, size_t *count, int *checked, char *why,
                        size_t whylen)
{
    int v2 = n >= 8 && !memcmp(p, "MTRIDX02", 8);
    if (n < 16 || (!v2 && memcmp(p, "MTRIDX01", 8))) {
        snprintf(why, whylen, "no index where the footer points");
        return -1;
    }
    uint64_t cnt = mt_get_u64(p + 8);
    size_t body = n - (v2 ? 4 : 0);
    if (n < 16 + (v2 ? 4u : 0u) || cnt > (body - 16) / (MT_MTR_IDX_ENTRY_WORDS * 8) ||
        (v2 && body != 16 + cnt * MT_MTR_IDX_ENTRY_WORDS * 8)) {
        snprintf(why, whylen, "index of %zu bytes cannot hold its %" PRIu64 " entries", n, cnt);
        return -1;
    }
    if (v2) {
        uint32_t want = mt_get_u32(p + body), got = mt_crc32c(p, body);
        if (want != got) {
            snprintf(why, whylen, "index checksum 0x%08x, computed 0x%08x", want, got);
            return -1;
        }
    }
    mt_frame_index *idx = calloc(cnt ? cnt : 1, sizeof *idx);
    if (!idx) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
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
    *checked = v2;
    return 0;
}

void mt_mtr_footer_encode(uint8_t out[MT_MTR_FOOT_PAYLOAD], uint64_t idx_off)
{
    mt_put_u64(out, idx_off);
    memcpy(out + 8, "MTRFOOT2", 8);
    mt_put_u32(out + 16, mt_crc32c(out, 16));
}

int mt_mtr_footer_decode(const uint8_t *tail, size_t n, uint64_t *idx_off, size_t *footer_len)
{
    if (n >= MT_MTR_FOOT_BYTES) {
        const uint8_t *ft = tail + n - MT_MTR_FOOT_BYTES;
        if (mt_get_u32(ft) == MT_MTR_MAGIC_FOOT && mt_get_u32(ft + 4) == MT_MTR_FOOT_PAYLOAD &&
            !memcmp(ft + 16, "MTRFOOT2", 8) && mt_get_u32(ft + 24) == mt_crc32c(ft + 8, 16)) {
            *idx_off = mt_get_u64(ft + 8);
            *footer_len = MT_MTR_FOOT_BYTES;
            return 1;
        }
    }
    if (n >= MT_MTR_FOOT1_BYTES) {
        const uint8_t *ft = tail + n - MT_MTR_FOOT1_BYTES;
        if (mt_get_u32(ft) == MT_MTR_MAGIC_FOOT && mt_get_u32(ft + 4) == 16 && !memcmp(ft + 16, "MTRFOOT1", 8)) {
            *idx_off = mt_get_u64(ft + 8);
            *footer_len = MT_MTR_FOOT1_BYTES;
            return 1;
        }
    }
    /* Not a whole footer. A damaged one still shows its magic or its name in the last bytes; an
     * unfinished file ends inside a data frame (or its index), where neither is likely. */
    for (size_t i = 0; i + 4 <= n; i++)
        if (mt_get_u32(tail + i) == MT_MTR_MAGIC_FOOT || (i + 7 <= n && !memcmp(tail + i, "MTRFOOT", 7)))
            return -1;
    return 0;
}
