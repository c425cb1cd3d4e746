#include "mt_paths.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The canonical name of a path whose file may not exist yet: its directory resolved, then its last
 * component ("" when not even the directory resolves: such an output cannot be created anyway). */
static void canonical(const char *path, char out[PATH_MAX])
{
    if (realpath(path, out))
        return;
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX], resolved[PATH_MAX];
    const char *base = slash ? slash + 1 : path;
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    if (!realpath(dir, resolved)) {
        out[0] = 0;
        return;
    }
    size_t nd = strcmp(resolved, "/") ? strlen(resolved) : 0, nb = strlen(base);
    if (nd + 1 + nb >= PATH_MAX) {
        out[0] = 0;
        return;
    }
    memcpy(out, resolved, nd);
    out[nd] = '/';
    memcpy(out + nd + 1, base, nb + 1);
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb)
        return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb) /* one names a file and the other nothing yet */
        return false;
    char ca[PATH_MAX], cb[PATH_MAX]; /* two outputs still to be created */
    canonical(a, ca);
    canonical(b, cb);
    return ca[0] && strcmp(ca, cb) == 0;
}

int mt_paths_check(const mt_named_path *outputs, size_t nout, const mt_named_path *inputs, size_t nin, char *err,
                   size_t errlen)
{
    for (size_t i = 0; i < nout; i++) {
        if (!outputs[i].path)
            continue;
        for (size_t j = 0; j < nin; j++)
            if (inputs[j].path && same_file(outputs[i].path, inputs[j].path)) {
                snprintf(err, errlen, "%s %s: that is the %s%s: it would be overwritten", outputs[i].option,
                         outputs[i].path, inputs[j].option, strcmp(inputs[j].option, "program") && strcmp(inputs[j].option, "input") ? " file" : "");
                return -1;
            }
        for (size_t j = i + 1; j < nout; j++)
            if (outputs[j].path && same_file(outputs[i].path, outputs[j].path)) {
                snprintf(err, errlen, "%s %s and %s %s: the same file for two outputs", outputs[i].option,
                         outputs[i].path, outputs[j].option, outputs[j].path);
                return -1;
            }
    }
    return 0;
}

void mt_remove_partial(const char *path)
{
    struct stat st;
    if (path && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        unlink(path);
}
