/* Subcommands still being written: each says so and fails (never pretends to work). */
#include <stdio.h>

#include "host/commands.h"

static int pending(const char *name)
{
    fprintf(stderr, "metatrace %s: not implemented yet\n", name);
    return 1;
}

int cmd_plot(int argc, char **argv) { (void)argc; return pending(argv[0]); }
