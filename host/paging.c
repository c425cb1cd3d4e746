#include "host/paging.h"

#include <string.h>

const char *pg_policy_name(pg_policy p)
{
    static const char *const names[PG_COUNT] = {"lru", "fifo", "clock", "opt"};
    return (unsigned)p < PG_COUNT ? names[p] : "?";
}

int pg_parse_policy(const char *s, pg_policy *out)
{
    for (int p = 0; p < PG_COUNT; p++)
        if (strcmp(s, pg_policy_name((pg_policy)p)) == 0) {
            *out = (pg_policy)p;
            return 0;
        }
    return -1;
}
