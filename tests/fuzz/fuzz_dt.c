/* libFuzzer target: the device trees a guest or mtemu reads. mtemu's --dtb check
 * (emu/platform/dtb.c dtb_check, libfdt) must refuse what is not one whole tree; the firmware's
 * own reader (firmware/rt/dt.c, compiled here as in tests/unit/test_fw_dt.c) then walks any blob
 * that passed, looking up the properties the firmware uses, and must never read outside it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/platform/dtb.h"
#include "firmware/rt/dt.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a copy of exactly `size` bytes: ASan catches a read past the blob's end */
    uint8_t *blob = malloc(size ? size : 1);
    if (!blob)
        return 0;
    memcpy(blob, data, size);
    char why[160];
    long n = dtb_check(blob, size, why, sizeof why);
    if (n >= 0) {
        struct dt dt;
        if (!dt_open(&dt, blob)) {
            uint32_t len;
            (void)dt_getprop(&dt, "/chosen", "bootargs", &len);
            (void)dt_getprop(&dt, "/cpus", "timebase-frequency", &len);
            struct dt_range r;
            (void)dt_find_reg(&dt, "compatible", "ns16550a", &r);
            (void)dt_find_reg(&dt, "device_type", "memory", &r);
            (void)dt_find_reg(&dt, "compatible", "metatrace,trace-unit", &r);
        }
    }
    free(blob);
    return 0;
}
