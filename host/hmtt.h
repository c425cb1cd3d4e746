/* HMTT trace records, exactly as the SPEC2017-Trace README (seed 004) documents them.
 *
 * Memory-access record: 6 bytes, read as a little-endian 48-bit word `tmp`:
 *   seq      = (tmp >> 40) & 0xff        0..255, +1 per record (a gap = lost records)
 *   duration = (tmp >> 32) & 0xff        memory-clock ticks since the previous record
 *   r_w      = (tmp >> 31) & 1           1 = READ, 0 = write
 *   raw      =  tmp & 0x7fffffff         31-bit address in 64-byte units
 *   paddr    = raw << 6, and paddr += 2 GiB when paddr >= 2 GiB
 * A record whose duration, r_w and address are all 0 is a filler: 256 ticks passed with no
 * access.  (So a write to bytes 0..63 exactly k*256 ticks after the previous record cannot be
 * told from a filler: the exporter counts such records.)  We take fillers to consume a sequence
 * number like any record the hardware emits.
 *
 * Kernel PTE record: 13 bytes, [magic 1][pid 4][vpn 4][ppn 4], little-endian; magic 0xec = PTE
 * set, 0xfc / 0x22 / 0x33 = PTE freed. */
#ifndef HOST_HMTT_H
#define HOST_HMTT_H

#include <stddef.h>
#include <stdint.h>

#include "host/sample.h"

#define HMTT_RECORD_BYTES 6
#define KPTE_RECORD_BYTES 13
#define HMTT_FILLER_TICKS 256

typedef struct {
    uint8_t seq;
    uint8_t duration;
    uint8_t read;      /* 1 = read, as HMTT */
    uint32_t raw_addr; /* 31 bits */
} hmtt_record;

uint64_t hmtt_pack(const hmtt_record *r);
void hmtt_unpack(uint64_t tmp, hmtt_record *r);
void hmtt_put(uint8_t out[HMTT_RECORD_BYTES], uint64_t tmp);
uint64_t hmtt_get(const uint8_t in[HMTT_RECORD_BYTES]);
int hmtt_is_filler(const hmtt_record *r);
uint64_t hmtt_phys_addr(uint32_t raw);
/* The raw field for a physical address (its 64-byte line); -1 when HMTT cannot represent it:
 * [2 GiB, 4 GiB) (the +2 GiB adjustment skips it) or at/above 2^37 + 2 GiB. */
int hmtt_raw_of_phys(uint64_t paddr, uint32_t *raw);

/* Streaming reader of an HMTT file into records: samples in the line format (every access),
 * HT_REC_LOSS records for sequence gaps (value = records lost, modulo 256).  cycle =
 * ticks since the first record x ticks_to_cycles. */
ht_source *hmtt_open(const char *path, uint64_t ticks_to_cycles, char *err, size_t errlen);

/* Streaming writer. */
typedef struct hmtt_writer hmtt_writer;
typedef struct {
    uint64_t records, fillers, ambiguous; /* ambiguous: all-zero access records (see above) */
} hmtt_writer_stats;
hmtt_writer *hmtt_writer_new(void *file /* FILE* */, uint64_t cycles_per_tick);
/* 0 ok; -1 address not representable (message in why) or write error. */
int hmtt_writer_access(hmtt_writer *w, uint64_t cycle, uint64_t paddr, int write, const char **why);
void hmtt_writer_stats_get(const hmtt_writer *w, hmtt_writer_stats *s);
void hmtt_writer_free(hmtt_writer *w);

typedef struct {
    uint8_t magic;
    uint32_t pid, vpn, ppn;
} kpte_record;
void kpte_unpack(const uint8_t in[KPTE_RECORD_BYTES], kpte_record *r);
void kpte_pack(const kpte_record *r, uint8_t out[KPTE_RECORD_BYTES]);
int kpte_is_set(uint8_t magic);   /* 0xec */
int kpte_is_free(uint8_t magic);  /* 0xfc, 0x22, 0x33 */

#endif
