/* Outputs that appear whole or not at all: written under a temporary name beside the output
 * (PATH.partial) and renamed to PATH only once every byte is written and the file is closed
 * without an error. A failed command leaves nothing at PATH (an earlier file there stays as it
 * was) and removes the temporary file; a killed one leaves PATH.partial, never a PATH that looks
 * complete. Outputs that are not regular files (/dev/null, /dev/full, a FIFO, a terminal, "-"
 * for stdout) are written directly: they cannot be renamed and are not left behind. */
#ifndef MT_OUTFILE_H
#define MT_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;
    char *path; /* the name the output gets */
    char *tmp;  /* where it is written: PATH.partial, or NULL when written directly */
    int is_stdout;
} mt_outfile;

#define MT_OUTFILE_SUFFIX ".partial"

/* Opens PATH for writing (mode "w" or "wb"; "-" is stdout when allow_stdout). 0, or -1 with
 * "PATH: cannot create: ..." in err. */
int mt_outfile_open(mt_outfile *o, const char *path, const char *mode, int allow_stdout, char *err, size_t errlen);
/* Flushes, closes and renames into place. 0, or -1 with "PATH: write failed: ..." in err (the
 * temporary file removed). Frees o's names either way. */
int mt_outfile_commit(mt_outfile *o, char *err, size_t errlen);
/* Closes and removes the temporary file (a direct output is closed only). */
void mt_outfile_discard(mt_outfile *o);
/* The name written to (the temporary one, or PATH when direct). */
const char *mt_outfile_writing(const mt_outfile *o);

#endif
