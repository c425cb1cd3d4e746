/* Output files that would overwrite an input or each other (`mtemu --trace prog.elf prog.elf`,
 * `metatrace reconstruct t.mtr -o t.mtr`, one FILE for two outputs): the tools refuse them
 * before they open anything. */
#ifndef MT_PATHS_H
#define MT_PATHS_H

#include <stddef.h>

typedef struct {
    const char *option; /* "--trace", "program", "-o", "input", ... */
    const char *path;   /* NULL: not given */
} mt_named_path;

/* 0 when every output names a file of its own, distinct from every input; else -1 with one line
 * in err naming both options and the file. Two names are the same file when they are one inode,
 * or, for an output that does not exist yet, the same canonical path. Files that are not regular
 * (/dev/null, a terminal, a FIFO) may be named more than once. */
int mt_paths_check(const mt_named_path *outputs, size_t nout, const mt_named_path *inputs, size_t nin, char *err,
                   size_t errlen);

/* Removes a half-written output, if it is a regular file. A device, FIFO or terminal named as
 * the output (/dev/null, /dev/full, /dev/stdout) stays: unlink would delete the node itself, and
 * as root it can. */
void mt_remove_partial(const char *path);

#endif
