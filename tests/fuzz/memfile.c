/* The fuzz input as a file without a file: readers that fopen a path get, for the name
 * fuzz_memfile_set gave out, a FILE over the input's bytes in memory (fmemopen), linked with
 * -Wl,--wrap=fopen. No system call per run (a memory file cost about ten: write, truncate,
 * open, stat, reads, seek, close). Only for readers that use stdio alone (no fileno). */
#include "memfile.h"

#include <errno.h>
#include <string.h>

FILE *__real_fopen(const char *path, const char *mode);
FILE *__wrap_fopen(const char *path, const char *mode);

static const uint8_t *mem_data;
static size_t mem_size;

const char *fuzz_memfile_set(const uint8_t *data, size_t size)
{
    mem_data = data;
    mem_size = size;
    return FUZZ_MEMFILE_NAME;
}

const uint8_t *fuzz_memfile_get(size_t *size)
{
    *size = mem_size;
    return mem_size ? mem_data : (const uint8_t *)"";
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
    if (strcmp(path, FUZZ_MEMFILE_NAME) != 0)
        return __real_fopen(path, mode);
    if (mode[0] != 'r') {
        errno = EROFS; /* the input's bytes are libFuzzer's: read-only */
        return NULL;
    }
    static char empty[1];
    return fmemopen(mem_size ? (void *)mem_data : empty, mem_size, "r");
}
