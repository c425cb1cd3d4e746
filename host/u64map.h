/* An open-addressing hash map from u64 keys to u64 values (linear probing, backward-shift
 * deletion).  Every per-page table in metatrace (last access time, resident slot, access
 * counts) is one of these: memory grows with the number of distinct pages, never with the
 * length of the trace. */
#ifndef HOST_U64MAP_H
#define HOST_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *keys;   /* key + 1; 0 marks an empty slot */
    uint64_t *vals;
    size_t cap;       /* power of two */
    size_t count;
} u64map;

int u64map_init(u64map *m, size_t expected);   /* 0 ok, -1 out of memory */
void u64map_free(u64map *m);
void u64map_clear(u64map *m);
/* Pointer to the value of key, or NULL. */
uint64_t *u64map_get(const u64map *m, uint64_t key);
/* Pointer to the value of key, inserting it with value `init` if absent; NULL when out of
 * memory.  *inserted tells which happened (may be NULL).  The pointer is valid until the next
 * insertion or removal. */
uint64_t *u64map_put(u64map *m, uint64_t key, uint64_t init, int *inserted);
int u64map_remove(u64map *m, uint64_t key);    /* 1 removed, 0 absent */

/* Iteration: for (size_t i = 0; u64map_iter(m, &i, &k, &v); ) ... */
int u64map_iter(const u64map *m, size_t *pos, uint64_t *key, uint64_t *val);

#endif
