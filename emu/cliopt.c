#include "emu/cliopt.h"

#include <stdio.h>
#include <string.h>

int cliopt_match(const char *name, int argc, char **argv, int *i, const char **value, bool takes_value,
                 char *err, size_t errlen)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return 0;
    if (!takes_value)
        return a[n] == 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != 0)
        return 0;
    if (*i + 1 >= argc) {
        snprintf(err, errlen, "option %s needs a value", name);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}
