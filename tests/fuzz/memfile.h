/* See memfile.c: the fuzz input served as a file by name, in memory. */
#ifndef FUZZ_MEMFILE_H
#define FUZZ_MEMFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FUZZ_MEMFILE_NAME "fuzz-input (memory)"

/* The bytes that fopen(FUZZ_MEMFILE_NAME, "r") reads until the next call; returns that name. */
const char *fuzz_memfile_set(const uint8_t *data, size_t size);
/* The bytes set last and their size (memfile_pread.c). */
const uint8_t *fuzz_memfile_get(size_t *size);

#endif
