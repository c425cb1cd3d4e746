/* The .mtr header payload: see mt_mtr_header.h. */
#include "mt_mtr_header.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt_crc32c.h"
#include "mt_le.h"

uint8_t *mt_mtr_header_encode(const mt_writer_config *cfg, size_t *n)
{
    mt_writer_config c = {0};
    if (cfg)
        c = *cfg;
    char info[MT_MTR_INFO_MAX];
    int il = snprintf(info, sizeof info, "producer=%s\n%s", c.producer ? c.producer : "libmetatrace",
                      c.info ? c.info : "");
    if (il < 0 || (size_t)il >= sizeof info)
        il = (int)sizeof info - 1;
    uint8_t *h = calloc(1, MT_MTR_HDR_FIXED + (size_t)il + 4);
    if (!h)
        return NULL;
    memcpy(h, "MTRHDR02", 8);
    mt_put_u64(h + 8, c.ref_hz ? c.ref_hz : 1000000000ull);
    mt_put_u32(h + 16, c.unit_cfg ? 1 : 0);
    if (c.unit_cfg) {
        const mt_unit_cfg *u = c.unit_cfg;
        mt_put_u32(h + 20, u->kind_mask);
        mt_put_u32(h + 24, u->tap);
        mt_put_u32(h + 28, u->fmt);
        mt_put_u32(h + 32, u->sync_period);
        mt_put_u32(h + 36, u->rate_h);
        mt_put_u32(h + 40, u->rate_l);
        mt_put_u64(h + 44, u->len_h);
        mt_put_u64(h + 52, u->len_l);
        mt_put_u32(h + 60, c.fifo_depth);
        mt_put_u32(h + 64, c.fifo_drain);
    }
    mt_put_u32(h + 68, (uint32_t)il);
    memcpy(h + MT_MTR_HDR_FIXED, info, (size_t)il);
    /* the checksum last, over every byte before it: whatever fields the header grows are covered */
    size_t len = MT_MTR_HDR_FIXED + (size_t)il;
    mt_put_u32(h + len, mt_crc32c(h, len));
    *n = len + 4;
    return h;
}

int mt_mtr_header_is(const uint8_t *p, size_t n)
{
    return n >= 16 && mt_get_u32(p) == MT_MTR_MAGIC_HDR &&
           (!memcmp(p + 8, "MTRHDR01", 8) || !memcmp(p + 8, "MTRHDR02", 8));
}

int mt_mtr_header_decode(const uint8_t *p, size_t sz, mt_file_header *h, const char *path, char *err,
                         size_t errlen)
{
    h->header_checked = !memcmp(p, "MTRHDR02", 8);
    if (h->header_checked) {
        if (sz < MT_MTR_HDR_FIXED + 4) {
            snprintf(err, errlen, "%s: truncated .mtr header", path);
            return -1;
        }
        sz -= 4;
        uint32_t want = mt_get_u32(p + sz), got = mt_crc32c(p, sz);
        if (want != got) {
            snprintf(err, errlen, "%s: damaged .mtr header (checksum 0x%08x, computed 0x%08x): its fields cannot be trusted",
                     path, want, got);
            return -1;
        }
    }
    if (sz < MT_MTR_HDR_FIXED) {
        snprintf(err, errlen, "%s: truncated .mtr header", path);
        return -1;
    }
    h->ref_hz = mt_get_u64(p + 8);
    h->has_unit_cfg = mt_get_u32(p + 16) & 1;
    h->cfg.kind_mask = mt_get_u32(p + 20);
    h->cfg.tap = mt_get_u32(p + 24);
    h->cfg.fmt = mt_get_u32(p + 28);
    h->cfg.sync_period = mt_get_u32(p + 32);
    h->cfg.rate_h = mt_get_u32(p + 36);
    h->cfg.rate_l = mt_get_u32(p + 40);
    h->cfg.len_h = mt_get_u64(p + 44);
    h->cfg.len_l = mt_get_u64(p + 52);
    h->fifo_depth = mt_get_u32(p + 60);
    h->fifo_drain = mt_get_u32(p + 64);
    uint32_t il = mt_get_u32(p + 68);
    if (il > sz - MT_MTR_HDR_FIXED || il >= MT_MTR_INFO_MAX) {
        snprintf(err, errlen, "%s: corrupt .mtr header (info length %u)", path, il);
        return -1;
    }
    memcpy(h->info, p + MT_MTR_HDR_FIXED, il);
    h->info[il] = 0;
    return 0;
}
