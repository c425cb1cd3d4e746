/* The fuzz input as a file, for readers that take a path: in /dev/shm when there is one (tmpfs:
 * a file on a disk-backed /tmp costs milliseconds per run, a hundredfold fewer execs/s). */
#ifndef FUZZ_FILE_H
#define FUZZ_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

/* Writes data to a per-process file named with tag and suffix; 0, or -1 (skip this input). */
static inline int fuzz_file(char *path, size_t cap, const char *tag, const char *suffix, const uint8_t *data,
                            size_t size)
{
    const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(path, cap, "%s/%s_%d%s", dir, tag, (int)getpid(), suffix);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, size, f);
    return fclose(f) == 0 && w == size ? 0 : -1;
}

#endif
