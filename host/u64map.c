#include "host/u64map.h"

#include <stdlib.h>
#include <string.h>

/* splitmix64's finaliser: page numbers are highly regular, the low bits must still spread. */
static inline size_t slot_of(uint64_t key, size_t cap)
{
    uint64_t z = key + UINT64_C(0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return (size_t)z & (cap - 1);
}

int u64map_init(u64map *m, size_t expected)
{
    size_t cap = 16;
    while (cap < expected * 2)
        cap <<= 1;
    m->keys = calloc(cap, sizeof *m->keys);
    m->vals = malloc(cap * sizeof *m->vals);
    m->cap = cap;
    m->count = 0;
    if (!m->keys || !m->vals) {
        u64map_free(m);
        return -1;
    }
    return 0;
}

void u64map_free(u64map *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = m->vals = NULL;
    m->cap = m->count = 0;
}

void u64map_clear(u64map *m)
{
    memset(m->keys, 0, m->cap * sizeof *m->keys);
    m->count = 0;
}

uint64_t *u64map_get(const u64map *m, uint64_t key)
{
    size_t i = slot_of(key, m->cap);
    for (;;) {
        uint64_t k = m->keys[i];
        if (k == 0)
            return NULL;
        if (k == key + 1)
            return &m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
}

static int grow(u64map *m)
{
    u64map n;
    if (u64map_init(&n, m->cap) != 0) /* init doubles: cap >= 2 * expected */
        return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i]) {
            size_t j = slot_of(m->keys[i] - 1, n.cap);
            while (n.keys[j])
                j = (j + 1) & (n.cap - 1);
            n.keys[j] = m->keys[i];
            n.vals[j] = m->vals[i];
        }
    n.count = m->count;
    u64map_free(m);
    *m = n;
    return 0;
}

uint64_t *u64map_put(u64map *m, uint64_t key, uint64_t init, int *inserted)
{
    if ((m->count + 1) * 4 > m->cap * 3 && grow(m) != 0)
        return NULL;
    size_t i = slot_of(key, m->cap);
    for (;;) {
        uint64_t k = m->keys[i];
        if (k == key + 1) {
            if (inserted)
                *inserted = 0;
            return &m->vals[i];
        }
        if (k == 0) {
            m->keys[i] = key + 1;
            m->vals[i] = init;
            m->count++;
            if (inserted)
                *inserted = 1;
            return &m->vals[i];
        }
        i = (i + 1) & (m->cap - 1);
    }
}

int u64map_remove(u64map *m, uint64_t key)
{
    size_t mask = m->cap - 1, i = slot_of(key, m->cap);
    for (;;) {
        if (m->keys[i] == 0)
            return 0;
        if (m->keys[i] == key + 1)
            break;
        i = (i + 1) & mask;
    }
    /* Backward-shift deletion keeps probe chains intact without tombstones. */
    size_t hole = i;
    for (size_t j = (hole + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
        size_t home = slot_of(m->keys[j] - 1, m->cap);
        /* j's entry may move into the hole if its home is not cyclically in (hole, j]. */
        int in_range = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!in_range) {
            m->keys[hole] = m->keys[j];
            m->vals[hole] = m->vals[j];
            hole = j;
        }
    }
    m->keys[hole] = 0;
    m->count--;
    return 1;
}

int u64map_iter(const u64map *m, size_t *pos, uint64_t *key, uint64_t *val)
{
    for (size_t i = *pos; i < m->cap; i++)
        if (m->keys[i]) {
            *key = m->keys[i] - 1;
            if (val)
                *val = m->vals[i];
            *pos = i + 1;
            return 1;
        }
    *pos = m->cap;
    return 0;
}
