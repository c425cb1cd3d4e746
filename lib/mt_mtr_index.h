/* The .mtr index (one entry per data frame) and the footer that locates it
 * (docs/trace-format.md section 4). */
#ifndef MT_MTR_INDEX_H
#define MT_MTR_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "mt_mtr.h"

#define MT_MTR_IDX_ENTRY_WORDS 7
/* Version 2 (index "MTRIDX02", footer "MTRFOOT2") ends each payload with a CRC-32C of the bytes
 * before it; version 1 ("MTRIDX01", "MTRFOOT1": 16-byte footer payload) has none. */
#define MT_MTR_FOOT_PAYLOAD 20
#define MT_MTR_FOOT_BYTES (8 + MT_MTR_FOOT_PAYLOAD) /* the footer frame: always the file's last bytes */
#define MT_MTR_FOOT1_BYTES 24                      /* version 1 */

/* The index payload for n entries; *len its length. NULL when out of memory. Free it. */
uint8_t *mt_mtr_index_encode(const mt_frame_index *e, size_t n, size_t *len);
/* Parses an index payload; *out (free it), *n and *checked (1: version 2, checksum matched).
 * -1 with the reason in why when it is not one or its checksum fails. */
int mt_mtr_index_decode(const uint8_t *p, size_t len, mt_frame_index **out, size_t *n, int *checked,
                        char *why, size_t whylen);
/* The footer payload pointing at the index frame at file offset idx_off. */
void mt_mtr_footer_encode(uint8_t out[MT_MTR_FOOT_PAYLOAD], uint64_t idx_off);
/* The index frame's offset from the file's last tail_len bytes (at least MT_MTR_FOOT_BYTES, or
 * exactly MT_MTR_FOOT1_BYTES for a short file): 1 found (*footer_len its frame's size), 0 when
 * the file does not end with a footer (an unfinished file), -1 when it ends with a damaged one. */
int mt_mtr_footer_decode(const uint8_t *tail, size_t tail_len, uint64_t *idx_off, size_t *footer_len);

#endif
