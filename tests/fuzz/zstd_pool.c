/* zstd contexts kept across fuzz runs: linked with -Wl,--wrap for ZSTD_createDCtx,
 * ZSTD_freeDCtx, ZSTD_createCCtx and ZSTD_freeCCtx, so the .mtr reader and writer (lib/), which
 * make one context per file, take a parked one instead of allocating (and ASan filling and
 * faulting in) a fresh one every run. A context is reset (session and parameters) when parked:
 * it is then what a new one is. A few are parked at most (metatrace compare opens two files at
 * once); beyond that they are freed. */
#include <stddef.h>
#include <zstd.h>

#define POOL_MAX 4

ZSTD_DCtx *__real_ZSTD_createDCtx(void);
size_t __real_ZSTD_freeDCtx(ZSTD_DCtx *d);
ZSTD_CCtx *__real_ZSTD_createCCtx(void);
size_t __real_ZSTD_freeCCtx(ZSTD_CCtx *c);
ZSTD_DCtx *__wrap_ZSTD_createDCtx(void);
size_t __wrap_ZSTD_freeDCtx(ZSTD_DCtx *d);
ZSTD_CCtx *__wrap_ZSTD_createCCtx(void);
size_t __wrap_ZSTD_freeCCtx(ZSTD_CCtx *c);

static ZSTD_DCtx *dpool[POOL_MAX];
static ZSTD_CCtx *cpool[POOL_MAX];
static int nd, nc;

ZSTD_DCtx *__wrap_ZSTD_createDCtx(void)
{
    return nd > 0 ? dpool[--nd] : __real_ZSTD_createDCtx();
}

size_t __wrap_ZSTD_freeDCtx(ZSTD_DCtx *d)
{
    if (!d)
        return 0;
    if (nd < POOL_MAX && !ZSTD_isError(ZSTD_DCtx_reset(d, ZSTD_reset_session_and_parameters))) {
        dpool[nd++] = d;
        return 0;
    }
    return __real_ZSTD_freeDCtx(d);
}

ZSTD_CCtx *__wrap_ZSTD_createCCtx(void)
{
    return nc > 0 ? cpool[--nc] : __real_ZSTD_createCCtx();
}

size_t __wrap_ZSTD_freeCCtx(ZSTD_CCtx *c)
{
    if (!c)
        return 0;
    if (nc < POOL_MAX && !ZSTD_isError(ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters))) {
        cpool[nc++] = c;
        return 0;
    }
    return __real_ZSTD_freeCCtx(c);
}
