/* The fuzz input as a file, for readers that take a path: a memory file (memfd) made once per
 * process, rewritten for every input and named by its /proc/self/fd path. No file system is
 * touched: a file on a disk-backed /tmp cost milliseconds per run, a hundredfold fewer execs/s,
 * and even tmpfs costs a create and an unlink per run. */
#ifndef FUZZ_FILE_H
#define FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* Puts data in the memory file and its name in path; 0, or -1 (skip this input). */
static inline int fuzz_file(char *path, size_t cap, const uint8_t *data, size_t size)
{
    static int fd = -1;
    if (fd < 0 && (fd = memfd_create("fuzz_input", 0)) < 0)
        return -1;
    snprintf(path, cap, "/proc/self/fd/%d", fd);
    /* written over, then cut to size: the file keeps its pages (emptying it first gave them
     * back, and the write faulted them in again, every run) */
    if (pwrite(fd, data, size, 0) != (ssize_t)size)
        return -1;
    return ftruncate(fd, (off_t)size) == 0 ? 0 : -1;
}

#endif
