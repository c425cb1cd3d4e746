/* libFuzzer target: mtemu as a whole, from its command line to the end of a short run. The input
 * is NUL-separated option words, an empty word, then guest code: emu/main.c (compiled here with
 * its main renamed mtemu_main; it reports bad options by returning 2, never by exit()) parses the
 * words, builds the machine (meta-pager, trace unit and writers, harts, device tree), runs the
 * code as the program (an ELF made here around it, loaded at 0x80000000 in M-mode) for at most
 * FUZZ_INSNS instructions, finishes its outputs and tears everything down.
 *
 * What a hostile command line may not do here, by construction: name a path with '/' (every
 * file it writes lands in a private directory in /dev/shm, emptied before each run), use the
 * gdbstub (a socket that waits; fuzz_gdb covers its protocol), read the console, or ask for more
 * than FUZZ_RAM_MAX of guest RAM (libFuzzer's malloc limit would call a large meta-pager table a
 * crash), or take more than FUZZ_TRAPS traps (a storm of them takes seconds). The limits are
 * applied by wrapping machine_create, mp_session_create and cpu_take_trap (-Wl,--wrap), so
 * mtemu's own code runs unchanged. machine_destroy is wrapped too: the machine is kept and the
 * next run's machine_create resets it (machine_reset). */
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "emu/metapaging/mpctl.h"
#include "emu/platform/machine.h"

#define FUZZ_INSNS 1000
#define FUZZ_TRAPS 1000 /* a trap storm retires nothing (mtemu calls it stuck after 8 M); the trap
                         * paths a run can reach are reached by its first few: 10,000 took a
                         * third of the target's time */
#define FUZZ_RAM_MAX (UINT64_C(64) << 20)
#define MAXARGS 32

int mtemu_main(int argc, char **argv);
void __real_cpu_take_trap(mt_cpu *c, uint64_t cause, uint64_t tval);
mt_machine *__real_machine_create(const mt_machine_config *cfg, char *err, size_t errlen);
struct mp_session *__real_mp_session_create(const struct mp_options *o, uint64_t ram_base, uint64_t ram_bytes,
                                            char *err, size_t errlen);

static FILE *devnull;
static uint64_t traps;

/* Every trap the harts take from other files than trap.c (the interpreter, the MMU, the CSRs,
 * the H extension): past FUZZ_TRAPS in a run the hart is stopped (which ends an SMP run too). */
void __wrap_cpu_take_trap(mt_cpu *c, uint64_t cause, uint64_t tval)
{
    if (++traps > FUZZ_TRAPS)
        cpu_request_stop(c);
    __real_cpu_take_trap(c, cause, tval);
}
static char scratch[64];
static int home_fd = -1, scratch_fd = -1; /* libFuzzer's directory (its relative paths), ours */
static int prog_fd = -1;
static char prog_path[64];

/* The machine of the last run, kept by machine_destroy for the next machine_create to reset
 * (machine_reset: the same memory set up afresh, which runs a program as a fresh machine does)
 * instead of allocating, mapping and faulting in a new one. */
static mt_machine *spare;
void __real_machine_destroy(mt_machine *m);

void __wrap_machine_destroy(mt_machine *m)
{
    if (!m)
        return;
    if (spare)
        __real_machine_destroy(spare);
    spare = m;
}

mt_machine *__wrap_machine_create(const mt_machine_config *cfg, char *err, size_t errlen)
{
    mt_machine_config c = *cfg;
    if (!c.max_insns || c.max_insns > FUZZ_INSNS)
        c.max_insns = FUZZ_INSNS;
    c.progress = false;
    c.in_fd = -1; /* WFI with nothing pending ends the run instead of waiting for input */
    c.out = devnull;
    traps = 0;
    if (!spare)
        return __real_machine_create(&c, err, errlen);
    mt_machine *m = spare;
    spare = NULL;
    if (machine_reset(m, &c, err, errlen))
        return m;
    __real_machine_destroy(m); /* refused as machine_create refuses: the same message in err */
    return NULL;
}

struct mp_session *__wrap_mp_session_create(const struct mp_options *o, uint64_t ram_base, uint64_t ram_bytes,
                                            char *err, size_t errlen)
{
    if (ram_bytes > FUZZ_RAM_MAX) {
        snprintf(err, errlen, "fuzz_mtemu: -m above 64 MiB is not fuzzed");
        return NULL;
    }
    return __real_mp_session_create(o, ram_base, ram_bytes, err, errlen);
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The guest code as a one-segment RV64 ELF at 0x80000000, in the memory file. */
static int write_program(const uint8_t *code, size_t n)
{
    static const uint8_t loop[4] = {0x6f, 0x00, 0x00, 0x00}; /* j . : no code given */
    if (!n) {
        code = loop;
        n = sizeof loop;
    }
    uint8_t h[120] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    put_le(h + 16, 2, 2);                        /* e_type: EXEC */
    put_le(h + 18, 243, 2);                      /* e_machine: RISC-V */
    put_le(h + 20, 1, 4);                        /* e_version */
    put_le(h + 24, RAM_BASE, 8);                 /* e_entry */
    put_le(h + 32, 64, 8);                       /* e_phoff */
    put_le(h + 52, 64, 2);                       /* e_ehsize */
    put_le(h + 54, 56, 2);                       /* e_phentsize */
    put_le(h + 56, 1, 2);                        /* e_phnum */
    uint8_t *ph = h + 64;
    put_le(ph, 1, 4);                            /* PT_LOAD */
    put_le(ph + 4, 7, 4);                        /* RWX */
    put_le(ph + 8, sizeof h, 8);                 /* p_offset */
    put_le(ph + 16, RAM_BASE, 8);                /* p_vaddr */
    put_le(ph + 24, RAM_BASE, 8);                /* p_paddr */
    put_le(ph + 32, n, 8);                       /* p_filesz */
    put_le(ph + 40, n + 4096, 8);                /* p_memsz: some zeroed room after it */
    put_le(ph + 48, 4, 8);                       /* p_align */
    return ftruncate(prog_fd, 0) == 0 && pwrite(prog_fd, h, sizeof h, 0) == (ssize_t)sizeof h &&
                   pwrite(prog_fd, code, n, sizeof h) == (ssize_t)n
               ? 0
               : -1;
}

static void empty_scratch(void)
{
    DIR *d = opendir(".");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlink(e->d_name);
    closedir(d);
}

/* At exit (libFuzzer ends with exit()): the private directory goes. */
static void remove_scratch(void)
{
    if (fchdir(scratch_fd) == 0) {
        empty_scratch();
        if (fchdir(home_fd) == 0)
            rmdir(scratch);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    devnull = fopen("/dev/null", "w");
    int null_in = open("/dev/null", O_RDONLY);
    snprintf(scratch, sizeof scratch, "%s/fuzz_mtemu_XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    prog_fd = memfd_create("fuzz_mtemu_prog", 0);
    /* -h and -V print on standard output; nothing may wait on standard input */
    if (!devnull || null_in < 0 || dup2(null_in, STDIN_FILENO) < 0 || dup2(fileno(devnull), STDOUT_FILENO) < 0 ||
        !mkdtemp(scratch) || (scratch_fd = open(scratch, O_RDONLY | O_DIRECTORY)) < 0 ||
        (home_fd = open(".", O_RDONLY | O_DIRECTORY)) < 0 || prog_fd < 0) {
        perror("fuzz_mtemu: set-up");
        abort();
    }
    close(null_in);
    atexit(remove_scratch);
    setenv("TMPDIR", scratch, 1); /* the meta-pager's default backing file */
    snprintf(prog_path, sizeof prog_path, "/proc/self/fd/%d", prog_fd);
    return 0;
}

static bool word_allowed(const char *w)
{
    return !strchr(w, '/') && strncmp(w, "-gdb", 4) != 0 && strncmp(w, "--gdb", 5) != 0 && strcmp(w, "-s") != 0 &&
           strcmp(w, "-S") != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 8192)
        return 0;
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = 0;
    char *argv[MAXARGS + 3];
    int argc = 0;
    argv[argc++] = "mtemu";
    size_t pos = 0;
    while (pos < size && buf[pos] && argc < MAXARGS) { /* the words, up to an empty one */
        argv[argc++] = buf + pos;
        pos += strlen(buf + pos) + 1;
    }
    pos = pos < size ? pos + 1 : size;
    for (int i = 1; i < argc; i++)
        if (!word_allowed(argv[i])) {
            free(buf);
            return -1; /* not added to the corpus */
        }
    argv[argc++] = prog_path;
    argv[argc] = NULL;
    if (write_program(data + pos, size - pos) != 0 || fchdir(scratch_fd) != 0) {
        free(buf);
        return 0;
    }
    empty_scratch();
    /* mtemu installs its own signal handlers: libFuzzer's come back after the run */
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    struct sigaction saved[4];
    for (int i = 0; i < 4; i++)
        sigaction(sigs[i], NULL, &saved[i]);
    FILE *keep = stderr;
    stderr = devnull; /* its one-line errors and --stats (sanitizer reports go to fd 2 itself) */
    optind = 0;       /* glibc: getopt starts afresh */
    (void)mtemu_main(argc, argv); /* any exit status: the guest's code is the input's */
    stderr = keep;
    if (fchdir(home_fd) != 0)
        abort();
    for (int i = 0; i < 4; i++)
        sigaction(sigs[i], &saved[i], NULL);
    free(buf);
    return 0;
}
