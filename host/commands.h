/* The subcommands of metatrace; each takes (argc, argv) with argv[0] = its own name and returns
 * the process exit status (0 ok, 1 bad input or failure, 2 usage error). */
#ifndef HOST_COMMANDS_H
#define HOST_COMMANDS_H

int cmd_info(int argc, char **argv);
int cmd_decode(int argc, char **argv);
int cmd_size(int argc, char **argv);
int cmd_reconstruct(int argc, char **argv);
int cmd_policy(int argc, char **argv);
int cmd_rowbuf(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_gen(int argc, char **argv);

/* "--help" or "-h" anywhere in argv. */
int cli_wants_help(int argc, char **argv);

#endif
