/* ASan's defaults for every fuzz target (ASAN_OPTIONS still overrides them).
 *
 * quarantine_size_mb=64 (ASan's default is 256): a freed block is not handed out again until
 * this much has been freed after it, so a use after free still finds it poisoned; 64 MB is
 * thousands of runs' worth of frees here. Until the quarantine is full every allocation takes
 * fresh memory and faults its pages in (each fault a TLB shootdown on this kind of VM): with
 * 256 MB that warm-up was more than half of a 10,000-run session's CPU time. fuzz_mtr,
 * 10,000 runs, -seed=1, golden seeds: 3,550 execs per CPU second at 256 MB, 8,000 at 64 MB. */
const char *__asan_default_options(void);

const char *__asan_default_options(void)
{
    return "quarantine_size_mb=64";
}
