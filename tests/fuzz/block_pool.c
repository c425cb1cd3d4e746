/* Keeps large calloc'd blocks across a fuzz target's runs (linked with -Wl,--wrap=calloc,
 * --wrap=free,--wrap=realloc into fuzz_mtemu).
 *
 * Why: mtemu's machine embeds hart 0 (mt_cpu, about 366 KB) and -smp adds a calloc'd hart each;
 * ASan serves blocks above its largest size class (128 KiB) by mmap, so every run mapped, faulted
 * in page by page, poisoned and unmapped them again: a quarter of fuzz_mtemu's time. Here a
 * calloc of POOL_MIN bytes or more takes a free pooled block of the same size (zeroed, as
 * calloc's) when there is one, and free() of a pooled block poisons it and keeps it
 * (ASAN_POISON_MEMORY_REGION): a use after free still stops the run, as with ASan's own
 * quarantine. realloc of a pooled block moves it out of the pool. */
#include <pthread.h>
#include <sanitizer/asan_interface.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define POOL_MIN (128u << 10)
#define POOL_BLOCKS 16

void *__real_calloc(size_t n, size_t size);
void __real_free(void *p);
void *__real_realloc(void *p, size_t size);
void *__wrap_calloc(size_t n, size_t size);
void __wrap_free(void *p);
void *__wrap_realloc(void *p, size_t size);

static struct {
    void *p;
    size_t size;
    int used;
} pool[POOL_BLOCKS];

/* mtemu's trace pipe allocates and frees on a thread of its own */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int pooled(const void *p)
{
    for (int i = 0; i < POOL_BLOCKS; i++)
        if (p && pool[i].p == p)
            return i;
    return -1;
}

void *__wrap_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t bytes = n * size;
    if (bytes < POOL_MIN)
        return __real_calloc(n, size);
    pthread_mutex_lock(&lock);
    int free_slot = -1;
    for (int i = 0; i < POOL_BLOCKS; i++) {
        if (pool[i].p && !pool[i].used && pool[i].size == bytes) {
            ASAN_UNPOISON_MEMORY_REGION(pool[i].p, bytes);
            memset(pool[i].p, 0, bytes);
            pool[i].used = 1;
            pthread_mutex_unlock(&lock);
            return pool[i].p;
        }
        if (!pool[i].p && free_slot < 0)
            free_slot = i;
    }
    void *p = __real_calloc(n, size);
    if (p && free_slot >= 0)
        pool[free_slot].p = p, pool[free_slot].size = bytes, pool[free_slot].used = 1;
    pthread_mutex_unlock(&lock);
    return p;
}

void __wrap_free(void *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&lock);
    int i = pooled(p);
    if (i >= 0) {
        if (!pool[i].used)
            __builtin_trap(); /* a double free: ASan would have said so */
        pool[i].used = 0;
        ASAN_POISON_MEMORY_REGION(p, pool[i].size);
    }
    pthread_mutex_unlock(&lock);
    if (i < 0)
        __real_free(p);
}

void *__wrap_realloc(void *p, size_t size)
{
    pthread_mutex_lock(&lock);
    int i = pooled(p);
    if (i < 0) {
        pthread_mutex_unlock(&lock);
        return __real_realloc(p, size);
    }
    if (!pool[i].used)
        __builtin_trap(); /* realloc after free */
    /* the block leaves the pool: the caller owns a plain heap block from here on */
    void *q = __real_realloc(NULL, size);
    if (q) {
        memcpy(q, p, size < pool[i].size ? size : pool[i].size);
        pool[i].used = 0;
        ASAN_POISON_MEMORY_REGION(p, pool[i].size);
    }
    pthread_mutex_unlock(&lock);
    return q;
}
