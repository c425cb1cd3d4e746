/* libFuzzer target: metatrace as a whole, from its command line to its outputs. The input is
 * NUL-separated words (the first picks the command), an empty word, then the bytes of an input
 * file that the words may name as in.mtr, in.csv or in.hmtt (three names for the same bytes, a
 * memory file). host/main.c (compiled here with its main renamed metatrace_main; every command
 * returns its exit status, none calls exit()) runs the command with its options parsed, its
 * inputs read, its outputs written and renamed, and everything freed.
 *
 * Left out by construction: `plot` (it runs gnuplot, another process per run), `gen` (it
 * makes as many accesses as it is told: time, not input handling, would be measured), paths
 * with '/' (every file written lands in a private directory in /dev/shm, emptied before each
 * run) and standard input (it is /dev/null). */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAXARGS 32

int metatrace_main(int argc, char **argv);

static FILE *devnull;
static char scratch[64];
static int home_fd = -1, scratch_fd = -1; /* libFuzzer's directory (its relative paths), ours */
static int in_fd = -1;
static char in_path[64];
static const char *const in_names[] = {"in.mtr", "in.csv", "in.hmtt"};

/* Removes what the last run wrote; the input names point at the memory file again. */
static void empty_scratch(void)
{
    DIR *d = opendir(".");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                unlink(e->d_name);
        closedir(d);
    }
}

static void reset_scratch(void)
{
    empty_scratch();
    for (size_t i = 0; i < sizeof in_names / sizeof in_names[0]; i++)
        if (symlink(in_path, in_names[i]) != 0)
            abort();
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
    snprintf(scratch, sizeof scratch, "%s/fuzz_metatrace_XXXXXX", access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
    in_fd = memfd_create("fuzz_metatrace_in", 0);
    if (!devnull || null_in < 0 || dup2(null_in, STDIN_FILENO) < 0 || dup2(fileno(devnull), STDOUT_FILENO) < 0 ||
        !mkdtemp(scratch) || (scratch_fd = open(scratch, O_RDONLY | O_DIRECTORY)) < 0 ||
        (home_fd = open(".", O_RDONLY | O_DIRECTORY)) < 0 || in_fd < 0) {
        perror("fuzz_metatrace: set-up");
        abort();
    }
    close(null_in);
    atexit(remove_scratch);
    setenv("TMPDIR", scratch, 1);
    snprintf(in_path, sizeof in_path, "/proc/%d/fd/%d", (int)getpid(), in_fd);
    return 0;
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
    char *argv[MAXARGS + 2];
    int argc = 0;
    argv[argc++] = "metatrace";
    size_t pos = 0;
    while (pos < size && buf[pos] && argc < MAXARGS) {
        argv[argc++] = buf + pos;
        pos += strlen(buf + pos) + 1;
    }
    pos = pos < size ? pos + 1 : size;
    argv[argc] = NULL;
    int keep_input = argc > 1 && strcmp(argv[1], "plot") != 0 && strcmp(argv[1], "gen") != 0;
    for (int i = 1; i < argc && keep_input; i++)
        keep_input = !strchr(argv[i], '/');
    if (!keep_input) {
        free(buf);
        return -1; /* not added to the corpus */
    }
    if (ftruncate(in_fd, 0) != 0 || pwrite(in_fd, data + pos, size - pos, 0) != (ssize_t)(size - pos) ||
        fchdir(scratch_fd) != 0) {
        free(buf);
        return 0;
    }
    reset_scratch();
    FILE *keep = stderr;
    stderr = devnull; /* its messages (sanitizer reports go to fd 2 itself) */
    (void)metatrace_main(argc, argv);
    fflush(stdout);
    clearerr(stdout);
    stderr = keep;
    if (fchdir(home_fd) != 0)
        abort();
    free(buf);
    return 0;
}
