/* metatrace: offline analysis of memory-access traces, git-style subcommands. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "host/commands.h"
#include "host/sample.h"
#include "mt_version.h"

typedef struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *what;
} command;

static const command commands[] = {
    {"info", cmd_info, "header, sections, sample counts, markers, overflows of a trace"},
    {"decode", cmd_decode, "one sample a line, as text or CSV"},
    {"size", cmd_size, "the seed's trace-size formula (and a measured trace beside it)"},
    {"reconstruct", cmd_reconstruct, "full-rate 48-bit trace from bursts and spans"},
    {"policy", cmd_policy, "metapage size x budget x policy: faults, bytes, cost, recommendation"},
    {"rowbuf", cmd_rowbuf, "DRAM open-page row-buffer hits, misses, conflicts per bank"},
    {"import", cmd_import, "HMTT or CSV into an every-access .mtr trace"},
    {"export", cmd_export, "a trace as HMTT records, CSV, DRAMSim2/3 or Ramulator traces"},
    {"compare", cmd_compare, "a sampled or reconstructed trace against ground truth"},
    {"plot", cmd_plot, "miss-ratio curves, fault cost vs size, row-hit rate vs stride"},
    {"gen", cmd_gen, "synthetic trace through the trace unit model into a .mtr"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: metatrace <command> [options]   (metatrace <command> --help)\n"
               "       metatrace --version\n\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-12s %s\n", commands[i].name, commands[i].what);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
        printf("metatrace %s\n", MT_VERSION_STRING);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            int rc = commands[i].run(argc - 1, argv + 1);
            /* what went to standard output reached it (a full disk, a closed pipe): else the
             * result is not whole, however the command ended */
            if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "metatrace %s: standard output: write error: %s\n", argv[1], strerror(errno ? errno : EIO));
                return rc ? rc : 1;
            }
            /* a result from a damaged trace is printed, but is not a success (the reader said why) */
            return rc == 0 && ht_damaged_inputs() ? 1 : rc;
        }
    fprintf(stderr, "metatrace: '%s' is not a command (metatrace --help lists them)\n", argv[1]);
    return 2;
}
