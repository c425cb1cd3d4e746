/* The meta-pager: guest RAM split into metapages of k x 4 KiB (k a power of two, 1..512), at
 * most N of them resident in host memory (the budget), the rest in a sparse backing file.
 *
 * This is the mechanism the project exists to tune (seed 000, section 1).  It is invisible to the
 * guest: whatever the budget and policy, every byte read is the last byte written.
 *
 *   - A fault on a non-resident metapage chooses a victim by policy (LRU exact, FIFO, CLOCK,
 *     seeded RANDOM), tells the RAM side to drop every cached host pointer into the victim
 *     (the invalidate callback), writes the victim back only if it is dirty, and reads the new
 *     metapage in -- or zero-fills it without any I/O when it was never written back.
 *   - The backing file is written and read with pwrite/pread at offset metapage x size, so it is
 *     sparse: -m 64G needs neither 64 GiB of disk nor of host memory.
 *   - I/O errors (cannot create, cannot write, disk full) are reported, never swallowed: the
 *     access returns NULL and mp_error() says which file, which offset, and why.
 *
 * The replacement state machine (struct mp_core) has no data and no I/O: the online simulator
 * (emu/metapaging/mpsim.h) runs the very same code for other configurations, so "what this configuration
 * would have done" and "what it did" cannot drift apart.  See docs/metapaging.md. */
#ifndef EMU_METAPAGER_H
#define EMU_METAPAGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MP_PAGE_SHIFT 12
#define MP_PAGE_SIZE (UINT64_C(1) << MP_PAGE_SHIFT)
#define MP_MAX_PAGES_PER_METAPAGE 512u /* 2 MiB metapages */

typedef enum { MP_LRU = 0, MP_FIFO, MP_CLOCK, MP_RANDOM, MP_POLICY_COUNT } mp_policy;

/* "lru" / "fifo" / "clock" / "random" -> policy; 0 on success, -1 when unknown. */
int mp_policy_parse(const char *name, mp_policy *out);
const char *mp_policy_name(mp_policy policy);

/* A byte count: decimal digits with an optional binary suffix K, M, G, T (also KiB, MiB, KB..,
 * case-insensitive).  0 on success, -1 on anything else (empty, junk, overflow). */
int mp_parse_bytes(const char *text, uint64_t *out);

/* ---- the replacement core: residency + policy + dirty bits, no data ------------------------ */

#define MP_NO_SLOT UINT32_MAX

struct mp_slot {
    uint64_t metapage;   /* which metapage occupies the slot (valid when slot < used) */
    uint32_t prev, next; /* LRU list, most recent first; index n_slots is the list head */
    uint8_t dirty;       /* written since it was loaded */
    uint8_t referenced;  /* CLOCK's reference bit */
};

struct mp_core {
    uint64_t n_metapages;
    uint32_t n_slots;    /* resident capacity N */
    uint32_t used;       /* slots filled so far (they fill 0, 1, 2, ... before any eviction) */
    uint32_t hand;       /* FIFO's oldest slot / CLOCK's hand */
    mp_policy policy;
    uint64_t rng;        /* RANDOM's generator state (splitmix64), from the seed */
    uint32_t *slot_of;   /* per metapage: slot + 1, 0 = not resident (lazily zeroed mapping) */
    struct mp_slot *slots; /* n_slots + 1 entries (the last is the LRU list head) */
    size_t slot_of_bytes, slots_bytes;
};

/* Returns 0, or -1 with a message in err (too many slots or metapages, out of memory). */
int mp_core_init(struct mp_core *core, uint64_t n_metapages, uint64_t n_slots, mp_policy policy,
                 uint64_t seed, char *err, size_t errlen);
void mp_core_free(struct mp_core *core);

/* The slot holding metapage mp, or MP_NO_SLOT. */
static inline uint32_t mp_core_lookup(const struct mp_core *core, uint64_t mp)
{
    return core->slot_of[mp] - 1u; /* 0 - 1 wraps to MP_NO_SLOT */
}

/* A hit on slot: recency (LRU), reference bit (CLOCK), dirty bit on a write. */
void mp_core_hit(struct mp_core *core, uint32_t slot, bool is_write);

/* The slot a fault must fill: a free one while any is left, else the policy's victim.  The victim
 * stays resident (and its dirty bit readable) until mp_core_install(); for CLOCK and RANDOM,
 * choosing advances the hand / the generator. */
uint32_t mp_core_choose(struct mp_core *core);

/* Puts metapage mp into slot (returned by mp_core_choose), evicting whatever was there. */
void mp_core_install(struct mp_core *core, uint32_t slot, uint64_t mp, bool is_write);

static inline bool mp_core_slot_occupied(const struct mp_core *core, uint32_t slot)
{
    return slot < core->used;
}

/* ---- the meta-pager ------------------------------------------------------------------------ */

struct mp_config {
    uint64_t ram_bytes;      /* guest RAM size; a non-zero multiple of 4 KiB */
    uint64_t metapage_bytes; /* k x 4 KiB, k a power of two 1..512 */
    uint64_t budget_bytes;   /* resident budget; 0 = unlimited (everything stays resident) */
    mp_policy policy;
    uint64_t seed;           /* RANDOM's seed: same seed, same victims */
    const char *backing_path;/* NULL: a temporary file, unlinked at once (so removed at exit) */
    const char *tmp_dir;     /* where the temporary file goes; NULL: $TMPDIR, else /tmp */
};

struct mp_stats {
    uint64_t accesses;      /* mp_page / mp_touch calls */
    uint64_t faults;        /* accesses to a non-resident metapage */
    uint64_t zero_fills;    /* faults on a metapage never written back: zero-filled, no I/O */
    uint64_t backing_reads; /* faults read from the backing file */
    uint64_t evictions;     /* faults that had to evict (the budget was full) */
    uint64_t writebacks;    /* evictions of a dirty metapage (the only ones that write) */
    uint64_t bytes_in;      /* read from the backing file by faults */
    uint64_t bytes_out;     /* written to the backing file by write-backs */
    uint64_t io_ns;         /* host time spent in backing-file pread/pwrite (CLOCK_MONOTONIC) */
    uint64_t fault_ns;      /* host time spent in the whole fault path, I/O included */
    uint64_t host_bytes_written; /* emulator's own writes (mp_host_write); not guest accesses */
};

/* Called on every eviction, before the frame is reused: invalidate every cached host pointer
 * into guest RAM bytes [offset, offset + len) (offsets from the start of RAM). */
typedef void (*mp_invalidate_fn)(void *ctx, uint64_t offset, uint64_t len);

struct metapager;

/* Checks a configuration without creating anything: 0, or -1 and a message in err. */
int mp_config_check(const struct mp_config *cfg, char *err, size_t errlen);

/* NULL on failure with one line in err naming the input and the problem. */
struct metapager *mp_create(const struct mp_config *cfg, char *err, size_t errlen);
void mp_destroy(struct metapager *mp);

void mp_set_invalidate(struct metapager *mp, mp_invalidate_fn fn, void *ctx);

/* Called after every fault (e.g. to charge its cost to emulated time); NULL: none. */
typedef void (*mp_fault_fn)(void *ctx);
void mp_set_fault_hook(struct metapager *mp, mp_fault_fn fn, void *ctx);

/* Host pointer to the 4 KiB guest page `page` (RAM offset / 4 KiB) for an access of the guest;
 * a write marks its metapage dirty.  Faults the metapage in when needed.  The pointer stays valid
 * until the invalidate callback names its range.  NULL on a backing-file error (mp_error()) or a
 * page outside RAM. */
uint8_t *mp_page(struct metapager *mp, uint64_t page, bool is_write);

/* The emulator's own accesses (ELF / device-tree loading, the RAM hash at exit): not counted,
 * never change residency or recency, never fault.  A write to a resident metapage goes to its
 * frame and through to the file, so its dirty bit (and so the write-back count) is unchanged.
 * 0, or -1 with mp_error(). */
int mp_host_write(struct metapager *mp, uint64_t offset, const void *src, size_t len);
int mp_host_read(struct metapager *mp, uint64_t offset, void *dst, size_t len);

const char *mp_error(const struct metapager *mp);
const struct mp_stats *mp_get_stats(const struct metapager *mp);
const struct mp_config *mp_get_config(const struct metapager *mp);
uint64_t mp_metapage_count(const struct metapager *mp);
uint32_t mp_resident_capacity(const struct metapager *mp);
uint64_t mp_metapage_faults(const struct metapager *mp, uint64_t metapage);
bool mp_is_resident(const struct metapager *mp, uint64_t metapage);

#endif
