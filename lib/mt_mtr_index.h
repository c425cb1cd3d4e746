/* The .mtr index (one entry per data frame) and the footer that locates it
 * (docs/trace-format.md section 4). */
#ifndef MT_MTR_INDEX_H
#define MT_MTR_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "mt_mtr.h"

#define MT_MTR_IDX_ENTRY_WORDS 7
#define MT_MTR_FOOT_PAYLOAD 16
#define MT_MTR_FOOT_BYTES (8 + MT_MTR_FOOT_PAYLOAD) /* the footer frame: always the file's last bytes */

/* The index payload for n entries; *len its length. NULL when out of memory. Free it. */
uint8_t *mt_mtr_index_encode(const mt_frame_index *e, size_t n, size_t *len);
/* Parses an index payload; *out (free it) and *n, or -1 when it is not one. */
int mt_mtr_index_decode(const uint8_t *p, size_t len, mt_frame_index **out, size_t *n);
/* The footer payload pointing at the index frame at file offset idx_off. */
void mt_mtr_footer_encode(uint8_t out[MT_MTR_FOOT_PAYLOAD], uint64_t idx_off);
/* The index frame's offset from the footer frame (its 24 bytes), or -1 when they are not one. */
int mt_mtr_footer_decode(const uint8_t foot[MT_MTR_FOOT_BYTES], uint64_t *idx_off);

#endif
