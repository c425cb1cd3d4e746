/* The inputs of a libFuzzer corpus directory, one file each, for the tools that replay a corpus
 * through a harness (unit_cost, unit_lazy_check). */
#ifndef CORPUS_WALK_H
#define CORPUS_WALK_H

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The next input of dir (the directory at dir_path; dot files skipped) read into data, which
 * holds cap + 1 bytes: its size, and its file name in *name, or -1 at the directory's end.  A
 * file of more than cap bytes is skipped, as the harness's target ignores such inputs; one that
 * cannot be opened is named on stderr after `tool` and skipped. */
static long corpus_next(DIR *dir, const char *dir_path, const char *tool, uint8_t *data, size_t cap,
                        const char **name)
{
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir_path, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f) {
            fprintf(stderr, "%s: %s: %s\n", tool, path, strerror(errno));
            continue;
        }
        size_t size = fread(data, 1, cap + 1, f);
        fclose(f);
        if (size > cap)
            continue;
        *name = e->d_name;
        return (long)size;
    }
    return -1;
}

#endif
