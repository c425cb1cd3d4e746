/* Long options of mtemu's optional parts (meta-paging, tracing), parsed by the part that owns
 * them so main.c only routes argv: one matcher so every part spells options the same way. */
#ifndef EMU_CLIOPT_H
#define EMU_CLIOPT_H

#include <stdbool.h>
#include <stddef.h>

/* Does argv[*i] name option `name` ("--name VALUE" or "--name=VALUE"; a flag when !takes_value)?
 * Returns 1 and sets *value (advancing *i past a separate value), 0 when it is another option,
 * or -1 with a message in err when the value is missing. */
int cliopt_match(const char *name, int argc, char **argv, int *i, const char **value, bool takes_value,
                 char *err, size_t errlen);

#endif
