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
    char dpath[4200], spath[4200], abs_out[4096];
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
    size_t need = strlen(script) + strlen(abs_out) + strlen(term) + 256;
    char *full = malloc(need);
    int rc = -1;
    if (!full) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    snprintf(full, need, "set terminal %s\nset output '%s'\ncd '%s'\n%s\nset output\n", term,
             abs_out, d, script);
    if (write_file(dpath, data) || write_file(spath, full)) {
        snprintf(err, errlen, "cannot write the plot data in %s", d);
        goto cleanup;
    }
    mt_remove_partial(abs_out);
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
    struct stat st;
    if (WEXITSTATUS(status) != 0 || stat(abs_out, &st) != 0 || st.st_size == 0) {
        snprintf(err, errlen, "%s: gnuplot failed (exit %d)", out, WEXITSTATUS(status));
        mt_remove_partial(abs_out);
        goto cleanup;
    }
    rc = 0;
cleanup:
    free(full);
    unlink(dpath);
    unlink(spath);
    rmdir(d);
    return rc;
}
