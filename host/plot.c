#include "host/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mt_paths.h"

const char *plot_terminal(const char *out)
{
    size_t n = strlen(out);
    if (n >= 4 && !strcasecmp(out + n - 4, ".png"))
        return "pngcairo size 960,640 font 'sans,10'";
    if (n >= 4 && !strcasecmp(out + n - 4, ".svg"))
        return "svg size 960,640 font 'sans,10'";
    return NULL;
}

static int write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int ok = fputs(text, f) >= 0;
    ok &= fclose(f) == 0;
    return ok ? 0 : -1;
}

/* 1 when the file gnuplot wrote is whole: a PNG ends with its IEND chunk, an SVG with
 * "</svg>" (then only white space). On a full disk gnuplot exits 0 with the file cut short. */
static int plot_complete(const char *path, int png)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    unsigned char tail[64];
    size_t n = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long sz = ftell(f);
        long from = sz > (long)sizeof tail ? sz - (long)sizeof tail : 0;
        if (fseek(f, from, SEEK_SET) == 0)
            n = fread(tail, 1, sizeof tail, f);
    }
    fclose(f);
    if (png) {
        static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
        return n >= 12 && !memcmp(tail + n - 12, iend, 12);
    }
    while (n && (tail[n - 1] == '\n' || tail[n - 1] == '\r' || tail[n - 1] == ' ' || tail[n - 1] == '\t'))
        n--;
    return n >= 6 && !memcmp(tail + n - 6, "</svg>", 6);
}

int plot_run(const char *script, const char *data, const char *out, char *err, size_t errlen)
{
    const char *term = plot_terminal(out);
    if (!term) {
        snprintf(err, errlen, "%s: the output must end in .png or .svg", out);
        return -1;
    }
    const char *tmp = getenv("TMPDIR");
    char dirbuf[4096];
    snprintf(dirbuf, sizeof dirbuf, "%s/metatrace-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    char *d = mkdtemp(dirbuf);
    if (!d) {
        snprintf(err, errlen, "cannot create a temporary directory (%s)", strerror(errno));
        return -1;
    }
    char dpath[4200], spath[4200], abs_out[4096], part[4200];
    snprintf(dpath, sizeof dpath, "%s/data.dat", d);
    snprintf(spath, sizeof spath, "%s/plot.gp", d);
    if (out[0] == '/') {
        snprintf(abs_out, sizeof abs_out, "%s", out);
    } else {
        char cwd[2048];
        if (!getcwd(cwd, sizeof cwd)) {
            snprintf(err, errlen, "cannot find the current directory");
            rmdir(d);
            return -1;
        }
        snprintf(abs_out, sizeof abs_out, "%s/%s", cwd, out);
    }
    /* gnuplot writes OUT.partial; it becomes OUT only when gnuplot succeeded and the file is whole */
    snprintf(part, sizeof part, "%s.partial", abs_out);
    size_t need = strlen(script) + strlen(part) + strlen(term) + 256;
    char *full = malloc(need);
    int rc = -1;
    if (!full) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    snprintf(full, need, "set terminal %s\nset output '%s'\ncd '%s'\n%s\nset output\n", term,
             part, d, script);
    if (write_file(dpath, data) || write_file(spath, full)) {
        snprintf(err, errlen, "cannot write the plot data in %s", d);
        goto cleanup;
    }
    struct stat ost;
    int direct = stat(abs_out, &ost) == 0 && !S_ISREG(ost.st_mode);
    if (direct) { /* /dev/null, a FIFO: gnuplot writes it itself */
        snprintf(part, sizeof part, "%s", abs_out);
        snprintf(full, need, "set terminal %s\nset output '%s'\ncd '%s'\n%s\nset output\n", term, part, d,
                 script);
        if (write_file(spath, full)) {
            snprintf(err, errlen, "cannot write the plot data in %s", d);
            goto cleanup;
        }
    }
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "cannot start gnuplot (%s)", strerror(errno));
        goto cleanup;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", 0);
        if (devnull >= 0)
            dup2(devnull, 0);
        execlp("gnuplot", "gnuplot", spath, (char *)NULL);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) {
        snprintf(err, errlen, "gnuplot did not finish");
        goto cleanup;
    }
    if (WEXITSTATUS(status) == 127) {
        snprintf(err, errlen, "gnuplot is not installed (Debian package gnuplot-nox; make deps)");
        goto cleanup;
    }
    if (WEXITSTATUS(status) != 0) {
        snprintf(err, errlen, "%s: gnuplot failed (exit %d)", out, WEXITSTATUS(status));
        goto cleanup;
    }
    if (!direct && !plot_complete(part, term[0] == 'p')) {
        snprintf(err, errlen, "%s: not written: gnuplot exited 0 but its %s (a full disk?)", out,
                 term[0] == 'p' ? "PNG is incomplete (no IEND chunk)" : "SVG is incomplete (no closing </svg>)");
        goto cleanup;
    }
    if (!direct && rename(part, abs_out) != 0) {
        snprintf(err, errlen, "%s: cannot rename %s into place: %s", out, part, strerror(errno));
        goto cleanup;
    }
    rc = 0;
cleanup:
    if (rc && full && strcmp(part, abs_out))
        mt_remove_partial(part);
    free(full);
    unlink(dpath);
    unlink(spath);
    rmdir(d);
    return rc;
}
