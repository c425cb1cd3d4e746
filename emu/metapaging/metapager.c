/* The meta-pager; see metapager.h and docs/metapaging.md. */
#include "emu/metapaging/metapager.h"
#include "mt_fullio.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const policy_names[MP_POLICY_COUNT] = {"lru", "fifo", "clock", "random"};

int mp_policy_parse(const char *name, mp_policy *out)
{
    for (int p = 0; p < MP_POLICY_COUNT; p++) {
        if (name && strcasecmp(name, policy_names[p]) == 0) {
            *out = (mp_policy)p;
            return 0;
        }
    }
    return -1;
}

const char *mp_policy_name(mp_policy policy)
{
    return (unsigned)policy < MP_POLICY_COUNT ? policy_names[policy] : "?";
}

int mp_parse_bytes(const char *text, uint64_t *out)
{
    if (!text || *text < '0' || *text > '9')
        return -1;
    uint64_t v = 0;
    const char *s = text;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    unsigned shift = 0;
    if (*s) {
        switch (*s | 0x20) {
        case 'k': shift = 10; break;
        case 'm': shift = 20; break;
        case 'g': shift = 30; break;
        case 't': shift = 40; break;
        case 'b': shift = 0; s--; break; /* plain "B" */
        default: return -1;
        }
        s++;
        /* Accept K, KB, KiB (all binary: memory sizes). */
        if ((*s | 0x20) == 'i')
            s++;
        if ((*s | 0x20) == 'b')
            s++;
        if (*s)
            return -1;
    }
    if (shift && v > (UINT64_MAX >> shift))
        return -1;
    *out = v << shift;
    return 0;
}

/* ---- lazily zeroed memory ---------------------------------------------------------------------
 * Per-metapage tables for -m 64G at 4 KiB metapages have 16 M entries; an anonymous mapping
 * commits host memory only for the parts that are touched. */

static void *zalloc(size_t bytes)
{
    if (bytes == 0)
        bytes = 1;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void zfree(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes ? bytes : 1);
}

/* ---- the replacement core ---------------------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

int mp_core_init(struct mp_core *core, uint64_t n_metapages, uint64_t n_slots, mp_policy policy,
                 uint64_t seed, char *err, size_t errlen)
{
    memset(core, 0, sizeof *core);
    if (n_slots > n_metapages)
        n_slots = n_metapages; /* a budget beyond RAM never evicts */
    if (n_metapages == 0 || n_slots == 0) {
        snprintf(err, errlen, "no metapages to manage (RAM or budget is zero)");
        return -1;
    }
    if (n_metapages >= UINT32_MAX || n_slots >= UINT32_MAX) {
        snprintf(err, errlen, "%" PRIu64 " metapages is more than this meta-pager can index",
                 n_metapages);
        return -1;
    }
    if ((unsigned)policy >= MP_POLICY_COUNT) {
        snprintf(err, errlen, "unknown replacement policy %d", (int)policy);
        return -1;
    }
    core->n_metapages = n_metapages;
    core->n_slots = (uint32_t)n_slots;
    core->policy = policy;
    core->rng = seed;
    core->slot_of_bytes = (size_t)n_metapages * sizeof *core->slot_of;
    core->slots_bytes = ((size_t)n_slots + 1) * sizeof *core->slots;
    core->slot_of = zalloc(core->slot_of_bytes);
    core->slots = zalloc(core->slots_bytes);
    if (!core->slot_of || !core->slots) {
        snprintf(err, errlen, "out of memory for %" PRIu64 " metapages", n_metapages);
        mp_core_free(core);
        return -1;
    }
    uint32_t head = core->n_slots;
    core->slots[head].prev = core->slots[head].next = head;
    return 0;
}

void mp_core_free(struct mp_core *core)
{
    zfree(core->slot_of, core->slot_of_bytes);
    zfree(core->slots, core->slots_bytes);
    core->slot_of = NULL;
    core->slots = NULL;
}

static void lru_unlink(struct mp_slot *s, uint32_t i)
{
    s[s[i].prev].next = s[i].next;
    s[s[i].next].prev = s[i].prev;
}

static void lru_push_front(struct mp_slot *s, uint32_t head, uint32_t i)
{
    s[i].prev = head;
    s[i].next = s[head].next;
    s[s[head].next].prev = i;
    s[head].next = i;
}

void mp_core_hit(struct mp_core *core, uint32_t slot, bool is_write)
{
    struct mp_slot *s = core->slots;
    s[slot].dirty |= is_write;
    s[slot].referenced = 1;
    if (core->policy == MP_LRU && s[core->n_slots].next != slot) {
        lru_unlink(s, slot);
        lru_push_front(s, core->n_slots, slot);
    }
}

uint32_t mp_core_choose(struct mp_core *core)
{
    if (core->used < core->n_slots)
        return core->used;
    switch (core->policy) {
    case MP_LRU:
        return core->slots[core->n_slots].prev; /* tail = least recently used */
    case MP_FIFO:
        return core->hand; /* slots were filled and are refilled in order: hand is the oldest */
    case MP_CLOCK:
        while (core->slots[core->hand].referenced) {
            core->slots[core->hand].referenced = 0;
            core->hand = core->hand + 1 == core->n_slots ? 0 : core->hand + 1;
        }
        return core->hand;
    case MP_RANDOM:
    default:
        return (uint32_t)(splitmix64(&core->rng) % core->n_slots);
    }
}

void mp_core_install(struct mp_core *core, uint32_t slot, uint64_t mp, bool is_write)
{
    struct mp_slot *s = core->slots;
    uint32_t head = core->n_slots;
    if (slot < core->used) {
        core->slot_of[s[slot].metapage] = 0;
        if (core->policy == MP_LRU)
            lru_unlink(s, slot);
        if (core->policy == MP_FIFO || core->policy == MP_CLOCK)
            core->hand = core->hand + 1 == core->n_slots ? 0 : core->hand + 1;
    } else {
        core->used = slot + 1; /* slots fill in order: mp_core_choose returned `used` */
    }
    s[slot].metapage = mp;
    s[slot].dirty = is_write;
    s[slot].referenced = 1;
    if (core->policy == MP_LRU)
        lru_push_front(s, head, slot);
    core->slot_of[mp] = slot + 1;
}

/* ---- the meta-pager ------------------------------------------------------------------------------ */

struct metapager {
    struct mp_config cfg;
    struct mp_core core;
    unsigned mp_shift;        /* log2(metapage bytes) */
    unsigned pages_shift;     /* log2(pages per metapage) */
    uint64_t ram_pages;
    uint8_t *frames;          /* n_slots x metapage bytes */
    size_t frames_bytes;
    uint8_t *stored;          /* bitmap: metapage has data in the backing file */
    size_t stored_bytes;
    uint64_t *faults_per_mp;  /* per-metapage fault counts */
    size_t faults_bytes;
    int fd;
    char *path;               /* for messages */
    mp_invalidate_fn invalidate;
    void *invalidate_ctx;
    mp_fault_fn on_fault;
    void *on_fault_ctx;
    struct mp_stats stats;
    bool broken;              /* a read failed mid-fault: every later access fails too */
    char error[320];
};

static unsigned log2u64(uint64_t v)
{
    unsigned s = 0;
    while ((UINT64_C(1) << s) < v)
        s++;
    return s;
}

int mp_config_check(const struct mp_config *cfg, char *err, size_t errlen)
{
    uint64_t size = cfg->metapage_bytes;
    if (size < MP_PAGE_SIZE || size > MP_MAX_PAGES_PER_METAPAGE * MP_PAGE_SIZE ||
        (size & (size - 1)) != 0) {
        snprintf(err, errlen,
                 "metapage size %" PRIu64 " bytes: must be k x 4 KiB with k a power of two from 1"
                 " to 512 (4K, 8K, ... 2M)",
                 size);
        return -1;
    }
    if (cfg->ram_bytes == 0 || cfg->ram_bytes % MP_PAGE_SIZE != 0) {
        snprintf(err, errlen, "RAM size %" PRIu64 " bytes: must be a non-zero multiple of 4 KiB",
                 cfg->ram_bytes);
        return -1;
    }
    if (cfg->budget_bytes != 0 && cfg->budget_bytes < size) {
        snprintf(err, errlen,
                 "metapage budget %" PRIu64 " bytes is smaller than one metapage (%" PRIu64
                 " bytes)",
                 cfg->budget_bytes, size);
        return -1;
    }
    if ((unsigned)cfg->policy >= MP_POLICY_COUNT) {
        snprintf(err, errlen, "unknown metapage policy %d", (int)cfg->policy);
        return -1;
    }
    uint64_t n = (cfg->ram_bytes + size - 1) / size;
    if (n >= UINT32_MAX) {
        snprintf(err, errlen, "RAM of %" PRIu64 " bytes is too many (%" PRIu64 ") metapages",
                 cfg->ram_bytes, n);
        return -1;
    }
    return 0;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void set_error(struct metapager *mp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_error(struct metapager *mp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(mp->error, sizeof mp->error, fmt, ap);
    va_end(ap);
}

static int open_backing(struct metapager *mp, const struct mp_config *cfg, char *err,
                        size_t errlen)
{
    if (cfg->backing_path) {
        mp->path = strdup(cfg->backing_path);
        if (!mp->path) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        /* A scratch file: its old contents mean nothing to a new guest. */
        mp->fd = open(mp->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (mp->fd < 0) {
            snprintf(err, errlen, "backing file %s: cannot create: %s", mp->path, strerror(errno));
            return -1;
        }
    } else {
        const char *dir = cfg->tmp_dir;
        if (!dir || !*dir)
            dir = getenv("TMPDIR");
        if (!dir || !*dir)
            dir = "/tmp";
        size_t n = strlen(dir) + sizeof "/mtemu-backing-XXXXXX";
        mp->path = malloc(n);
        if (!mp->path) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        snprintf(mp->path, n, "%s/mtemu-backing-XXXXXX", dir);
        mp->fd = mkostemp(mp->path, O_CLOEXEC);
        if (mp->fd < 0) {
            snprintf(err, errlen, "backing file in %s: cannot create: %s", dir, strerror(errno));
            return -1;
        }
        /* Unlinked at once: the file disappears at exit however the process ends. */
        unlink(mp->path);
    }
    /* Make it as large as RAM without allocating anything (a sparse file), so that a file system
     * that cannot hold a file this large says so now rather than mid-run.  Devices and pipes
     * cannot be truncated; they get their errors at the first write instead. */
    struct stat st;
    if (fstat(mp->fd, &st) == 0 && S_ISREG(st.st_mode)) {
        uint64_t len = mp_metapage_count(mp) << mp->mp_shift;
        if (ftruncate(mp->fd, (off_t)len) != 0) {
            snprintf(err, errlen, "backing file %s: cannot size it to %" PRIu64 " bytes: %s",
                     mp->path, len, strerror(errno));
            return -1;
        }
    }
    return 0;
}

struct metapager *mp_create(const struct mp_config *cfg, char *err, size_t errlen)
{
    if (mp_config_check(cfg, err, errlen) != 0)
        return NULL;
    struct metapager *mp = calloc(1, sizeof *mp);
    if (!mp) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    mp->cfg = *cfg;
    mp->cfg.backing_path = NULL; /* not kept: the caller owns the string */
    mp->cfg.tmp_dir = NULL;
    mp->fd = -1;
    mp->mp_shift = log2u64(cfg->metapage_bytes);
    mp->pages_shift = mp->mp_shift - MP_PAGE_SHIFT;
    mp->ram_pages = cfg->ram_bytes >> MP_PAGE_SHIFT;
    uint64_t n_mp = (cfg->ram_bytes + cfg->metapage_bytes - 1) >> mp->mp_shift;
    uint64_t n_slots = cfg->budget_bytes ? cfg->budget_bytes >> mp->mp_shift : n_mp;
    if (mp_core_init(&mp->core, n_mp, n_slots, cfg->policy, cfg->seed, err, errlen) != 0)
        goto fail;
    mp->frames_bytes = (size_t)mp->core.n_slots << mp->mp_shift;
    mp->frames = zalloc(mp->frames_bytes);
    mp->stored_bytes = (size_t)(n_mp + 7) / 8;
    mp->stored = zalloc(mp->stored_bytes);
    mp->faults_bytes = (size_t)n_mp * sizeof *mp->faults_per_mp;
    mp->faults_per_mp = zalloc(mp->faults_bytes);
    if (!mp->frames || !mp->stored || !mp->faults_per_mp) {
        snprintf(err, errlen, "out of host memory for a resident budget of %" PRIu64 " bytes",
                 (uint64_t)mp->frames_bytes);
        goto fail;
    }
    if (open_backing(mp, cfg, err, errlen) != 0)
        goto fail;
    return mp;
fail:
    mp_destroy(mp);
    return NULL;
}

void mp_destroy(struct metapager *mp)
{
    if (!mp)
        return;
    if (mp->fd >= 0)
        close(mp->fd);
    free(mp->path);
    zfree(mp->frames, mp->frames_bytes);
    zfree(mp->stored, mp->stored_bytes);
    zfree(mp->faults_per_mp, mp->faults_bytes);
    mp_core_free(&mp->core);
    free(mp);
}

void mp_set_invalidate(struct metapager *mp, mp_invalidate_fn fn, void *ctx)
{
    mp->invalidate = fn;
    mp->invalidate_ctx = ctx;
}

void mp_set_fault_hook(struct metapager *mp, mp_fault_fn fn, void *ctx)
{
    mp->on_fault = fn;
    mp->on_fault_ctx = ctx;
}

static bool is_stored(const struct metapager *mp, uint64_t m)
{
    return (mp->stored[m >> 3] >> (m & 7)) & 1;
}

static void mark_stored(struct metapager *mp, uint64_t m)
{
    mp->stored[m >> 3] |= (uint8_t)(1u << (m & 7));
}

/* Full pwrite, or -1 with the error set (a write that makes no progress is a full disk). */
static int write_all(struct metapager *mp, const uint8_t *buf, size_t len, uint64_t off)
{
    uint64_t t0 = now_ns();
    int rc = mt_pwrite_full(mp->fd, buf, len, off);
    if (rc < 0)
        set_error(mp, "backing file %s: write of %zu bytes at offset %" PRIu64 " failed: %s", mp->path, len, off,
                  strerror(errno));
    mp->stats.io_ns += now_ns() - t0;
    return rc;
}

/* Full pread; bytes past the end of the file read as zero (a sparse file's tail). */
static int read_all(struct metapager *mp, uint8_t *buf, size_t len, uint64_t off)
{
    uint64_t t0 = now_ns();
    ssize_t got = mt_pread_full(mp->fd, buf, len, off);
    if (got < 0)
        set_error(mp, "backing file %s: read of %zu bytes at offset %" PRIu64 " failed: %s", mp->path, len, off,
                  strerror(errno));
    else
        memset(buf + got, 0, len - (size_t)got);
    mp->stats.io_ns += now_ns() - t0;
    return got < 0 ? -1 : 0;
}

static uint8_t *frame_of_slot(const struct metapager *mp, uint32_t slot)
{
    return mp->frames + ((size_t)slot << mp->mp_shift);
}

/* The fault path: victim out (write-back only when dirty), new metapage in. */
static int fault_in(struct metapager *mp, uint64_t m, bool is_write, uint32_t *slot_out)
{
    uint64_t t0 = now_ns();
    struct mp_core *c = &mp->core;
    uint64_t size = UINT64_C(1) << mp->mp_shift;
    uint32_t slot = mp_core_choose(c);
    uint8_t *frame = frame_of_slot(mp, slot);
    if (mp_core_slot_occupied(c, slot)) {
        const struct mp_slot *v = &c->slots[slot];
        if (mp->invalidate)
            mp->invalidate(mp->invalidate_ctx, v->metapage << mp->mp_shift, size);
        if (v->dirty) {
            if (write_all(mp, frame, size, v->metapage << mp->mp_shift) != 0)
                return -1; /* the victim stays resident and intact */
            mark_stored(mp, v->metapage);
            mp->stats.writebacks++;
            mp->stats.bytes_out += size;
        }
        mp->stats.evictions++;
    }
    if (is_stored(mp, m)) {
        if (read_all(mp, frame, size, m << mp->mp_shift) != 0) {
            /* The victim's frame is half overwritten: nothing this pager holds can be trusted
             * any more, so it refuses every further access rather than return wrong data. */
            mp->broken = true;
            return -1;
        }
        mp->stats.backing_reads++;
        mp->stats.bytes_in += size;
    } else {
        memset(frame, 0, size);
        mp->stats.zero_fills++;
    }
    mp_core_install(c, slot, m, is_write);
    mp->stats.faults++;
    mp->faults_per_mp[m]++;
    mp->stats.fault_ns += now_ns() - t0;
    *slot_out = slot;
    if (mp->on_fault)
        mp->on_fault(mp->on_fault_ctx);
    return 0;
}

uint8_t *mp_page(struct metapager *mp, uint64_t page, bool is_write)
{
    if (page >= mp->ram_pages) {
        set_error(mp, "page %" PRIu64 " is outside guest RAM (%" PRIu64 " pages)", page,
                  mp->ram_pages);
        return NULL;
    }
    if (mp->broken)
        return NULL; /* mp->error still says why */
    uint64_t m = page >> mp->pages_shift;
    mp->stats.accesses++;
    uint32_t slot = mp_core_lookup(&mp->core, m);
    if (slot != MP_NO_SLOT) {
        mp_core_hit(&mp->core, slot, is_write);
    } else if (fault_in(mp, m, is_write, &slot) != 0) {
        return NULL;
    }
    uint64_t within = page & ((UINT64_C(1) << mp->pages_shift) - 1);
    return frame_of_slot(mp, slot) + (within << MP_PAGE_SHIFT);
}

static int host_range_check(struct metapager *mp, uint64_t offset, size_t len, const char *what)
{
    if (offset > mp->cfg.ram_bytes || len > mp->cfg.ram_bytes - offset) {
        set_error(mp, "%s of %zu bytes at RAM offset 0x%" PRIx64 " goes past the end of RAM", what,
                  len, offset);
        return -1;
    }
    return 0;
}

int mp_host_write(struct metapager *mp, uint64_t offset, const void *src, size_t len)
{
    if (mp->broken || host_range_check(mp, offset, len, "write") != 0)
        return -1;
    const uint8_t *p = src;
    uint64_t size = UINT64_C(1) << mp->mp_shift;
    while (len) {
        uint64_t m = offset >> mp->mp_shift;
        uint64_t in = offset & (size - 1);
        size_t n = (size_t)(size - in) < len ? (size_t)(size - in) : len;
        uint32_t slot = mp_core_lookup(&mp->core, m);
        if (slot != MP_NO_SLOT)
            memcpy(frame_of_slot(mp, slot) + in, p, n);
        /* Written through, so a clean frame stays clean (equal to the file) and the write-back
         * counts are the guest's alone.  A never-stored metapage is zero everywhere else, which
         * is what the file's holes read as. */
        if (write_all(mp, p, n, offset) != 0)
            return -1;
        mark_stored(mp, m);
        mp->stats.host_bytes_written += n;
        p += n;
        offset += n;
        len -= n;
    }
    return 0;
}

int mp_host_read(struct metapager *mp, uint64_t offset, void *dst, size_t len)
{
    if (mp->broken || host_range_check(mp, offset, len, "read") != 0)
        return -1;
    uint8_t *p = dst;
    uint64_t size = UINT64_C(1) << mp->mp_shift;
    uint64_t saved_io = mp->stats.io_ns;
    while (len) {
        uint64_t m = offset >> mp->mp_shift;
        uint64_t in = offset & (size - 1);
        size_t n = (size_t)(size - in) < len ? (size_t)(size - in) : len;
        uint32_t slot = mp_core_lookup(&mp->core, m);
        if (slot != MP_NO_SLOT)
            memcpy(p, frame_of_slot(mp, slot) + in, n);
        else if (is_stored(mp, m)) {
            if (read_all(mp, p, n, offset) != 0)
                return -1;
        } else
            memset(p, 0, n);
        p += n;
        offset += n;
        len -= n;
    }
    mp->stats.io_ns = saved_io; /* the emulator's own reads are not the guest's I/O */
    return 0;
}

const char *mp_error(const struct metapager *mp)
{
    return mp->error[0] ? mp->error : "no error";
}

const struct mp_stats *mp_get_stats(const struct metapager *mp)
{
    return &mp->stats;
}

const struct mp_config *mp_get_config(const struct metapager *mp)
{
    return &mp->cfg;
}

uint64_t mp_metapage_count(const struct metapager *mp)
{
    return mp->core.n_metapages;
}

uint32_t mp_resident_capacity(const struct metapager *mp)
{
    return mp->core.n_slots;
}

uint64_t mp_metapage_faults(const struct metapager *mp, uint64_t metapage)
{
    return metapage < mp->core.n_metapages ? mp->faults_per_mp[metapage] : 0;
}

bool mp_is_resident(const struct metapager *mp, uint64_t metapage)
{
    return metapage < mp->core.n_metapages && mp_core_lookup(&mp->core, metapage) != MP_NO_SLOT;
}
