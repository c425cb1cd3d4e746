/* Positional reads and writes that finish the job: pread/pwrite may move fewer bytes than asked
 * (a signal, a pipe, a file system's own limit), and every caller that needs all of them would
 * otherwise spell the same loop. Both retry on EINTR and never move the file offset. */
#ifndef MT_FULLIO_H
#define MT_FULLIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Writes all len bytes at off. 0, or -1 with errno set; a write that makes no progress (returns
 * 0) is reported as ENOSPC, which is what a full disk looks like. */
int mt_pwrite_full(int fd, const void *buf, size_t len, uint64_t off);

/* Reads up to len bytes at off, stopping early only at the end of the file. The bytes read
 * (fewer than len only at the end of the file), or -1 with errno set. */
ssize_t mt_pread_full(int fd, void *buf, size_t len, uint64_t off);

#endif
