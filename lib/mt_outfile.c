/* Outputs renamed into place on success: see mt_outfile.h. */
#include "mt_outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void names_free(mt_outfile *o)
{
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    o->f = NULL;
}

int mt_outfile_open(mt_outfile *o, const char *path, const char *mode, int allow_stdout, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (allow_stdout && !strcmp(path, "-")) {
        o->f = stdout;
        o->is_stdout = 1;
        o->path = strdup(path);
        return o->path ? 0 : -1;
    }
    struct stat st;
    int direct = stat(path, &st) == 0 && !S_ISREG(st.st_mode); /* /dev/null, a FIFO, ... */
    o->path = strdup(path);
    if (!direct && o->path) {
        size_t n = strlen(path) + sizeof MT_OUTFILE_SUFFIX;
        o->tmp = malloc(n);
        if (o->tmp)
            snprintf(o->tmp, n, "%s%s", path, MT_OUTFILE_SUFFIX);
    }
    if (!o->path || (!direct && !o->tmp)) {
        snprintf(err, errlen, "%s: out of memory", path);
        names_free(o);
        return -1;
    }
    o->f = fopen(direct ? path : o->tmp, mode);
    if (!o->f) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        names_free(o);
        return -1;
    }
    return 0;
}

const char *mt_outfile_writing(const mt_outfile *o)
{
    return o->tmp ? o->tmp : o->path;
}

int mt_outfile_commit(mt_outfile *o, char *err, size_t errlen)
{
    int rc = 0;
    errno = 0;
    if (o->is_stdout) {
        if (fflush(o->f) != 0 || ferror(o->f)) {
            snprintf(err, errlen, "standard output: write failed: %s", strerror(errno ? errno : EIO));
            rc = -1;
        }
        names_free(o);
        return rc;
    }
    int bad = fflush(o->f) != 0 || ferror(o->f);
    int e = errno;
    if (fclose(o->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    if (!bad && o->tmp && rename(o->tmp, o->path) != 0) {
        bad = 1;
        e = errno;
    }
    if (bad) {
        snprintf(err, errlen, "%s: write failed: %s", o->path, strerror(e ? e : EIO));
        if (o->tmp)
            unlink(o->tmp);
        rc = -1;
    }
    names_free(o);
    return rc;
}

void mt_outfile_discard(mt_outfile *o)
{
    if (!o->path)
        return;
    if (o->f && !o->is_stdout)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    names_free(o);
}
