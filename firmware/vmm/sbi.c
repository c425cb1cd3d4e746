#include "sbi.h"

#include "console.h"
#include "gstage.h"
#include "mmio.h"
#include "vmm_defs.h"

enum {
    EXT_LEGACY_SET_TIMER = 0x00,
    EXT_LEGACY_PUTCHAR = 0x01,
    EXT_LEGACY_GETCHAR = 0x02,
    EXT_LEGACY_SHUTDOWN = 0x08,
    EXT_BASE = 0x10,
    EXT_TIME = 0x54494D45,
    EXT_IPI = 0x735049,
    EXT_RFENCE = 0x52464E43,
    EXT_HSM = 0x48534D,
    EXT_SRST = 0x53525354,
    EXT_DBCN = 0x4442434E,
};

enum {
    SBI_SUCCESS = 0,
    SBI_ERR_FAILED = -1,
    SBI_ERR_NOT_SUPPORTED = -2,
    SBI_ERR_INVALID_PARAM = -3,
    SBI_ERR_ALREADY_AVAILABLE = -6,
};

#define SBI_SPEC_VERSION ((2UL << 24) | 0) /* 2.0 */
#define SBI_IMPL_ID 0x6d74UL              /* "mt": not a registered implementation id */
#define SBI_IMPL_VERSION 1UL

struct sbi_stats sbi_stats;

struct sbiret {
    int64_t error;
    uint64_t value;
};

static void __attribute__((noreturn)) guest_power_off(const char *how, uint64_t type, uint64_t reason)
{
    con_puts("\nvmm: guest ");
    con_puts(how);
    con_puts(" (type ");
    con_dec(type);
    con_puts(", reason ");
    con_dec(reason);
    con_puts("); SBI calls: ");
    con_dec(sbi_stats.calls);
    con_puts(" (console out ");
    con_dec(sbi_stats.console_out);
    con_puts(", in ");
    con_dec(sbi_stats.console_in);
    con_puts(", timer ");
    con_dec(sbi_stats.timer);
    con_puts(", ipi ");
    con_dec(sbi_stats.ipi);
    con_puts(", rfence ");
    con_dec(sbi_stats.rfence);
    con_puts("); device accesses emulated: ");
    con_dec(mmio_accesses);
    con_puts("\n");
    /* a shutdown with "no reason" passes; a system failure or a reboot (which this VMM does
     * not offer: it runs one boot) ends the run with status 1 */
    vmm_exit(type == 0 && reason == 0 ? 0 : 1);
}

static void set_timer(uint64_t when)
{
    sbi_stats.timer++;
    __asm__ volatile("csrw 0x24d, %0" ::"r"(when)); /* vstimecmp: VSTIP when time >= when */
}

static int probe(uint64_t ext)
{
    switch (ext) {
    case EXT_BASE: case EXT_TIME: case EXT_IPI: case EXT_RFENCE: case EXT_HSM: case EXT_SRST: case EXT_DBCN:
        return 1;
    default:
        return 0;
    }
}

/* Does the hart mask (mask, base) name hart 0, the only one?  base = -1: every hart. */
static int names_hart0(uint64_t mask, uint64_t base) { return base == UINT64_MAX || (base == 0 && (mask & 1)); }

static int valid_hart_mask(uint64_t mask, uint64_t base)
{
    return base == UINT64_MAX || (base == 0 && (mask & ~1UL) == 0) || (base > 0 && mask == 0);
}

static struct sbiret base_call(uint64_t fid, uint64_t a0)
{
    switch (fid) {
    case 0: return (struct sbiret){SBI_SUCCESS, SBI_SPEC_VERSION};
    case 1: return (struct sbiret){SBI_SUCCESS, SBI_IMPL_ID};
    case 2: return (struct sbiret){SBI_SUCCESS, SBI_IMPL_VERSION};
    case 3: return (struct sbiret){SBI_SUCCESS, (uint64_t)probe(a0)};
    case 4: case 5: case 6: return (struct sbiret){SBI_SUCCESS, 0}; /* mvendorid, marchid, mimpid */
    default: return (struct sbiret){SBI_ERR_NOT_SUPPORTED, 0};
    }
}

static struct sbiret rfence_call(uint64_t fid, uint64_t mask, uint64_t base)
{
    if (!valid_hart_mask(mask, base))
        return (struct sbiret){SBI_ERR_INVALID_PARAM, 0};
    if (fid > 2)
        return (struct sbiret){SBI_ERR_NOT_SUPPORTED, 0}; /* the HFENCE ones: no nested guests */
    sbi_stats.rfence++;
    if (!names_hart0(mask, base))
        return (struct sbiret){SBI_SUCCESS, 0};
    if (fid == 0)
        __asm__ volatile("fence.i" ::: "memory");
    else
        __asm__ volatile(".insn r 0x73, 0, 0x11, x0, x0, x0" ::: "memory"); /* hfence.vvma: all */
    return (struct sbiret){SBI_SUCCESS, 0};
}

static struct sbiret hsm_call(uint64_t fid, uint64_t hart)
{
    switch (fid) {
    case 0: /* hart_start */
        return (struct sbiret){hart == 0 ? SBI_ERR_ALREADY_AVAILABLE : SBI_ERR_INVALID_PARAM, 0};
    case 2: /* hart_get_status: 0 = STARTED */
        return (struct sbiret){hart == 0 ? SBI_SUCCESS : SBI_ERR_INVALID_PARAM, 0};
    default: /* hart_stop of the only hart, hart_suspend */
        return (struct sbiret){SBI_ERR_NOT_SUPPORTED, 0};
    }
}

static struct sbiret dbcn_call(uint64_t fid, uint64_t a0, uint64_t a1, uint64_t a2)
{
    if (fid == 2) { /* console_write_byte */
        sbi_stats.console_out++;
        con_putc((char)a0);
        return (struct sbiret){SBI_SUCCESS, 0};
    }
    if (fid > 2)
        return (struct sbiret){SBI_ERR_NOT_SUPPORTED, 0};
    uint64_t hpa = a2 == 0 ? gstage_hpa(a1, a0) : 0; /* a buffer above 2^64 is no guest RAM */
    if (hpa == 0)
        return (struct sbiret){SBI_ERR_INVALID_PARAM, 0};
    uint8_t *p = (uint8_t *)(uintptr_t)hpa;
    uint64_t n = 0;
    if (fid == 0) { /* console_write */
        for (; n < a0; n++)
            con_putc((char)p[n]);
        sbi_stats.console_out += n;
    } else { /* console_read: what is waiting, without blocking */
        int c;
        while (n < a0 && (c = con_getc()) >= 0)
            p[n++] = (uint8_t)c;
        sbi_stats.console_in += n;
    }
    return (struct sbiret){SBI_SUCCESS, n};
}

void sbi_call(uint64_t *frame)
{
    uint64_t a0 = frame[10], a1 = frame[11], a2 = frame[12], fid = frame[16], ext = frame[17];
    struct sbiret r = {SBI_ERR_NOT_SUPPORTED, 0};
    sbi_stats.calls++;
    switch (ext) {
    /* legacy extensions: one result in a0, a1 left alone */
    case EXT_LEGACY_SET_TIMER:
        set_timer(a0);
        frame[10] = 0;
        return;
    case EXT_LEGACY_PUTCHAR:
        sbi_stats.console_out++;
        con_putc((char)a0);
        frame[10] = 0;
        return;
    case EXT_LEGACY_GETCHAR: {
        int c = con_getc();
        if (c >= 0)
            sbi_stats.console_in++;
        frame[10] = (uint64_t)(int64_t)c;
        return;
    }
    case EXT_LEGACY_SHUTDOWN:
        guest_power_off("shut down (legacy SBI)", 0, 0);
    case EXT_BASE:
        r = base_call(fid, a0);
        break;
    case EXT_TIME:
        if (fid == 0) {
            set_timer(a0);
            r = (struct sbiret){SBI_SUCCESS, 0};
        }
        break;
    case EXT_IPI:
        if (fid == 0 && valid_hart_mask(a0, a1)) {
            sbi_stats.ipi++;
            if (names_hart0(a0, a1))
                __asm__ volatile("csrs 0x645, %0" ::"r"(MIP_VSSIP)); /* hvip.VSSIP */
            r = (struct sbiret){SBI_SUCCESS, 0};
        } else if (fid == 0) {
            r = (struct sbiret){SBI_ERR_INVALID_PARAM, 0};
        }
        break;
    case EXT_RFENCE:
        r = rfence_call(fid, a0, a1);
        break;
    case EXT_HSM:
        r = hsm_call(fid, a0);
        break;
    case EXT_SRST:
        if (fid == 0 && a0 == 0)
            guest_power_off("shut down", a0, a1);
        if (fid == 0 && (a0 == 1 || a0 == 2))
            guest_power_off("asked for a reboot, which this VMM does not offer", a0, a1);
        r = (struct sbiret){fid == 0 ? SBI_ERR_INVALID_PARAM : SBI_ERR_NOT_SUPPORTED, 0};
        break;
    case EXT_DBCN:
        r = dbcn_call(fid, a0, a1, a2);
        break;
    default:
        break;
    }
    frame[10] = (uint64_t)r.error;
    frame[11] = r.value;
}
