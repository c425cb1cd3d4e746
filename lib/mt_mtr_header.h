/* The .mtr header payload (docs/trace-format.md section 4): what the writer records about the
 * stream (reference clock, the trace unit's configuration, the info text) and its parsing. */
#ifndef MT_MTR_HEADER_H
#define MT_MTR_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "mt_mtr.h"

#define MT_MTR_HDR_FIXED 72 /* bytes before the info text */

/* Version 2 ("MTRHDR02") ends with a CRC-32C of every payload byte before it; version 1
 * ("MTRHDR01", written until 2026-12-05) has none: read, and marked unchecked.
 * The header payload for cfg; *n its length. NULL when out of memory. Free it. */
uint8_t *mt_mtr_header_encode(const mt_writer_config *cfg, size_t *n);
/* 1 when p (n >= 16 bytes available) starts a header frame (skippable magic and version). */
int mt_mtr_header_is(const uint8_t *p, size_t n);
/* Parses a header payload of sz bytes into h (the reader's fields untouched but header_checked);
 * 0, or -1 with a message naming path in err (a version 2 header whose checksum fails). */
int mt_mtr_header_decode(const uint8_t *p, size_t sz, mt_file_header *h, const char *path, char *err,
                         size_t errlen);

#endif
