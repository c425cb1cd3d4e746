/* pread for the memory file of memfile.c (linked with -Wl,--wrap=pread, and --wrap=fopen):
 * readers that read at an offset through fileno(fp) (the .mtr reader's index and footer) get
 * the input's bytes too. An fmemopen FILE has no descriptor (fileno gives -1), and -1 is no
 * real file's descriptor, so it names the memory file here; every other descriptor reaches the
 * real pread. */
#include "memfile.h"

#include <string.h>
#include <sys/types.h>
#include <unistd.h>

ssize_t __real_pread(int fd, void *buf, size_t n, off_t at);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t at);

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t at)
{
    if (fd != -1)
        return __real_pread(fd, buf, n, at);
    size_t size;
    const uint8_t *data = fuzz_memfile_get(&size);
    if (at < 0 || !data)
        return -1;
    if ((uint64_t)at >= size)
        return 0;
    size_t k = size - (size_t)at < n ? size - (size_t)at : n;
    memcpy(buf, data + at, k);
    return (ssize_t)k;
}
