#include "host/exporters.h"

#include <inttypes.h>
#include <string.h>

static const char *const names[EXP_COUNT] = {"csv", "dramsim2", "dramsim3", "ramulator", "hmtt"};

int export_parse_kind(const char *s, export_kind *out)
{
    if (!strcmp(s, "dramsim")) {
        *out = EXP_DRAMSIM3;
        return 0;
    }
    for (int k = 0; k < EXP_COUNT; k++)
        if (!strcmp(s, names[k])) {
            *out = (export_kind)k;
            return 0;
        }
    return -1;
}

const char *export_kind_name(export_kind k)
{
    return (unsigned)k < EXP_COUNT ? names[k] : "?";
}

void export_header(FILE *f, export_kind k)
{
    if (k == EXP_CSV)
        fputs("cycle,address,rw\n", f);
}

void export_line(FILE *f, export_kind k, uint64_t cycle, uint64_t addr, int write)
{
    switch (k) {
    case EXP_CSV:
        fprintf(f, "%" PRIu64 ",0x%" PRIx64 ",%c\n", cycle, addr, write ? 'W' : 'R');
        break;
    case EXP_DRAMSIM2:
        fprintf(f, "0x%08" PRIX64 " %s %" PRIu64 "\n", addr, write ? "P_MEM_WR" : "P_MEM_RD", cycle);
        break;
    case EXP_DRAMSIM3:
        fprintf(f, "0x%" PRIX64 " %s %" PRIu64 "\n", addr, write ? "WRITE" : "READ", cycle);
        break;
    case EXP_RAMULATOR:
        fprintf(f, "0x%08" PRIx64 " %c\n", addr, write ? 'W' : 'R');
        break;
    default:
        break;
    }
}
