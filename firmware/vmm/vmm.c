/* metatrace's VMM: a bare-metal hypervisor in HS-mode that boots an unmodified RISC-V Linux
 * Image as a VS-mode guest (docs/boot.md, "Linux as a guest").
 *
 * The loader (mtemu --bios vmm.elf --kernel Image, or QEMU -bios/-kernel) stages the Image at
 * host-physical 0x8020_0000 and enters start.S in M-mode with a1 = the host's device tree.
 * vmm_main then
 *   - reads the host tree: RAM, /cpus/timebase-frequency, /chosen/bootargs (handed to the guest);
 *   - checks the Image header and copies the Image to its guest-physical load address in guest
 *     RAM, which is host RAM from GUEST_HPA_OFFSET on (the staged copy is never executed);
 *   - maps guest RAM through the G-stage (gstage.c) and writes the guest's device tree
 *     (guest_dt.c) into the last 2 MiB of guest RAM;
 *   - enters the Image in VS-mode with a0 = 0 (hart id), a1 = the tree's guest-physical address.
 * Then it only serves traps from the guest: SBI calls (sbi.c), accesses to its virtual PLIC and
 * UART (mmio.c, vplic.c, vuart.c) and its own console poll; anything else (another guest-page
 * fault outside guest RAM, a virtual instruction) is reported and ends the run with status 3.
 * The guest's timer is Sstc's vstimecmp and its interrupts are delegated (hideleg), so a running
 * guest traps to the VMM only for its SBI calls, its device accesses and the VMM's console poll. */
#include <stdint.h>
#include <string.h>

#include "console.h"
#include "firmware/rt/dt.h"
#include "gstage.h"
#include "guest_dt.h"
#include "mmio.h"
#include "vplic.h"
#include "sbi.h"
#include "vmm_defs.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define CSR_READ(csr) ({ uint64_t v_; __asm__ volatile("csrr %0, " STR(csr) : "=r"(v_)); v_; })
#define CSR_WRITE(csr, v) __asm__ volatile("csrw " STR(csr) ", %0" ::"r"((uint64_t)(v)))
#define CSR_SET(csr, v) __asm__ volatile("csrs " STR(csr) ", %0" ::"r"((uint64_t)(v)))

#define DEFAULT_BOOTARGS "console=hvc0 earlycon=sbi"

/* The RISC-V Linux Image header (Documentation/riscv/boot-image-header.rst). */
struct image_header {
    uint32_t code0, code1;
    uint64_t text_offset; /* load offset from the start of RAM, little endian */
    uint64_t image_size;  /* bytes the kernel occupies from its load address (bss included) */
    uint64_t flags;
    uint32_t version, res1;
    uint64_t res2;
    uint64_t magic;       /* "RISCV\0\0\0" */
    uint32_t magic2;      /* "RSC\x05" */
    uint32_t res3;
};
#define IMAGE_MAGIC 0x5643534952UL
#define IMAGE_MAGIC2 0x05435352U

extern char hs_stack_top[], __bss_end[];
void hs_trap(void);
void vmm_main(uint64_t hartid, const void *host_dtb);
void vmm_trap(uint64_t *frame);
void vmm_m_trap(uint64_t mcause, uint64_t mepc, uint64_t mtval);
void vmm_hs_fault(uint64_t scause, uint64_t sepc, uint64_t stval);

static char bootargs[2048];

static void __attribute__((noreturn)) fail(const char *what, const char *why)
{
    con_puts("vmm: ");
    con_puts(what);
    if (why) {
        con_puts(": ");
        con_puts(why);
    }
    con_puts("\n");
    vmm_exit(3);
}

static void put_kv(const char *k, uint64_t v)
{
    con_puts(k);
    con_hex(v);
}

void vmm_m_trap(uint64_t mcause, uint64_t mepc, uint64_t mtval)
{
    put_kv("vmm: unexpected M-mode trap: mcause ", mcause);
    put_kv(" mepc ", mepc);
    put_kv(" mtval ", mtval);
    fail("stopped", NULL);
}

void vmm_hs_fault(uint64_t scause, uint64_t sepc, uint64_t stval)
{
    put_kv("vmm: fault in the VMM before the guest ran: scause ", scause);
    put_kv(" sepc ", sepc);
    put_kv(" stval ", stval);
    fail("stopped", NULL);
}

/* A trap the VMM does not serve: what the guest did, then the end of the run. */
static void __attribute__((noreturn)) guest_trap_fatal(const char *what, uint64_t cause)
{
    con_puts("\nvmm: ");
    con_puts(what);
    put_kv(": scause ", cause);
    put_kv(" sepc ", CSR_READ(sepc));
    put_kv(" stval ", CSR_READ(stval));
    put_kv(" htval ", CSR_READ(CSR_HTVAL));
    put_kv(" htinst ", CSR_READ(CSR_HTINST));
    fail("guest stopped", NULL);
}

/* The VMM's own timer (HS's stimecmp, Sstc): typed input reaches the guest's UART only when the
 * VMM looks, and a guest waiting for it in WFI does not trap, so the VMM looks every 10 ms. */
#define CONSOLE_POLL_TICKS(tb) ((tb) / 100)
static uint64_t poll_ticks;

static void arm_console_poll(void) { CSR_WRITE(0x14d, CSR_READ(time) + poll_ticks); }

void vmm_trap(uint64_t *frame)
{
    uint64_t cause = CSR_READ(scause);
    switch (cause) {
    case (1UL << 63) | 5: /* HS timer */
        vplic_update();
        arm_console_poll();
        return;
    case 10: /* ecall from VS: an SBI call */
        CSR_WRITE(sepc, CSR_READ(sepc) + 4);
        sbi_call(frame);
        return;
    case 20: case 21: case 23: /* htval << 2 is the guest-physical address */
        if (mmio_emulate(frame, cause, CSR_READ(CSR_HTVAL) << 2 | (CSR_READ(stval) & 3)))
            return;
        guest_trap_fatal("guest-page fault outside guest RAM and the virtual UART", cause);
    case 22:
        guest_trap_fatal("virtual instruction", cause);
    default:
        guest_trap_fatal("unexpected trap from the guest", cause);
    }
}

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

struct host_info {
    struct dt_range ram;
    uint32_t timebase_hz;
    uint64_t dtb, dtb_size; /* where the host's tree lies (it may be inside future guest RAM) */
};

/* What the VMM takes from the host's tree; bootargs are copied out (the tree's memory becomes
 * guest RAM). */
static void read_host_dt(const void *blob, struct host_info *h)
{
    struct dt dt;
    const char *err = dt_open(&dt, blob);
    if (err)
        fail("the host device tree (a1)", err);
    if (!dt_find_reg(&dt, "device_type", "memory", &h->ram))
        fail("the host device tree", "no memory node");
    uint32_t len;
    const uint8_t *tb = dt_getprop(&dt, "/cpus", "timebase-frequency", &len);
    if (!tb || len != 4)
        fail("the host device tree", "no 32-bit /cpus/timebase-frequency");
    h->timebase_hz = be32(tb);
    h->dtb = (uint64_t)(uintptr_t)blob;
    h->dtb_size = dt.total_size;
    const char *args = dt_getprop(&dt, "/chosen", "bootargs", &len);
    if (!args || len <= 1)
        args = DEFAULT_BOOTARGS, len = sizeof DEFAULT_BOOTARGS;
    if (len > sizeof bootargs || args[len - 1] != 0)
        fail("/chosen/bootargs", "longer than 2047 bytes or not a string");
    memcpy(bootargs, args, len);
}

static const struct image_header *check_image(void)
{
    const struct image_header *img = (const struct image_header *)KERNEL_STAGE_HPA;
    if (img->magic != IMAGE_MAGIC || img->magic2 != IMAGE_MAGIC2)
        fail("no RISC-V Linux Image at 0x80200000", "give one with --kernel (its header lacks \"RISCV\" / \"RSC\\x05\")");
    if (img->image_size == 0 || img->image_size > GUEST_HPA_OFFSET - (KERNEL_STAGE_HPA - RAM_BASE))
        fail("the Image", "its image_size is 0 or more than 62 MiB");
    if (img->text_offset % MIB2 || img->text_offset >= GUEST_RAM_MIN / 2)
        fail("the Image", "its text_offset is not a multiple of 2 MiB below 16 MiB");
    return img;
}

/* Copies whole 64-byte blocks.  The source and destination pages are a multiple of 2 MiB apart,
 * so in a direct-mapped TLB of 512 4 KiB entries (mtemu's) they evict each other: 8 loads before
 * 8 stores make that one miss per block instead of one per word (1.3 M TLB fills fewer). */
static void copy_blocks(uint64_t dst, uint64_t src, uint64_t len)
{
    uint64_t *d = (uint64_t *)(uintptr_t)dst;
    const uint64_t *s = (const uint64_t *)(uintptr_t)src;
    for (const uint64_t *end = s + (len + 63) / 64 * 8; s < end; s += 8, d += 8) {
        uint64_t w0 = s[0], w1 = s[1], w2 = s[2], w3 = s[3], w4 = s[4], w5 = s[5], w6 = s[6], w7 = s[7];
        d[0] = w0, d[1] = w1, d[2] = w2, d[3] = w3, d[4] = w4, d[5] = w5, d[6] = w6, d[7] = w7;
    }
}

static void zero_bytes(uint64_t dst, uint64_t len)
{
    volatile uint8_t *d = (volatile uint8_t *)(uintptr_t)dst;
    for (uint64_t i = 0; i < len; i++)
        d[i] = 0;
}

void vmm_main(uint64_t hartid, const void *host_dtb)
{
    (void)hartid;
    con_puts("vmm: metatrace VMM in HS-mode: one VS-mode guest under an Sv39x4 G-stage\n");
    if ((uint64_t)(uintptr_t)__bss_end > KERNEL_STAGE_HPA)
        fail("the VMM", "overlaps the staged Image");
    struct host_info host;
    read_host_dt(host_dtb, &host);
    const struct image_header *img = check_image();
    if (host.ram.base != RAM_BASE || host.ram.size < GUEST_HPA_OFFSET + GUEST_RAM_MIN)
        fail("host RAM", "must start at 0x80000000 and hold 64 MiB + 32 MiB of guest RAM (mtemu -m 96M or more)");
    uint64_t guest_hpa = RAM_BASE + GUEST_HPA_OFFSET;
    uint64_t guest_size = (host.ram.size - GUEST_HPA_OFFSET) & ~(MIB2 - 1);
    if (guest_size > GUEST_RAM_MAX)
        guest_size = GUEST_RAM_MAX;
    uint64_t text_offset = img->text_offset ? img->text_offset : MIB2;
    uint64_t kernel_gpa = GUEST_RAM_GPA + text_offset;
    uint64_t dtb_gpa = GUEST_RAM_GPA + guest_size - MIB2;

    /* the Image to its load address; the host's tree is cleared where it lies in guest RAM (the
     * loaders put it at the top of RAM): the guest must not find it */
    copy_blocks(guest_hpa + text_offset, KERNEL_STAGE_HPA, img->image_size);
    if (host.dtb >= guest_hpa && host.dtb < guest_hpa + guest_size)
        zero_bytes(host.dtb, host.dtb_size);
    /* 4 KiB leaves where the kernel starts (its text: fetched all the time); Linux leaves the
     * RAM below its load address unused */
    gstage_build(guest_hpa, guest_size, kernel_gpa);
    struct guest_dt_params gp = {GUEST_RAM_GPA, guest_size, host.timebase_hz, bootargs};
    if (guest_dt_build((void *)(uintptr_t)gstage_hpa(dtb_gpa, MIB2), MIB2, &gp) == 0)
        fail("the guest device tree", "does not fit");

    put_kv("vmm: guest RAM GPA ", GUEST_RAM_GPA);
    put_kv(" + ", guest_size);
    put_kv(" -> host ", guest_hpa);
    put_kv(" (2 MiB leaves; 4 KiB leaves at GPA ", kernel_gpa);
    con_puts(" + 2 MiB)\n");
    put_kv("vmm: Image ", img->image_size);
    put_kv(" bytes at GPA ", kernel_gpa);
    put_kv(", device tree at GPA ", dtb_gpa);
    con_puts("\nvmm: guest bootargs: ");
    con_puts(bootargs);
    con_puts("\nvmm: entering the guest in VS-mode\n");

    /* the guest handles its own exceptions (misaligned, access, illegal, breakpoint, U ecall,
     * page faults) and its VS interrupts; its counters and Sstc's stimecmp are open */
    CSR_WRITE(CSR_HEDELEG, 0x1ffUL | (1UL << 12) | (1UL << 13) | (1UL << 15));
    CSR_WRITE(CSR_HIDELEG, MIP_VSSIP | MIP_VSTIP | MIP_VSEIP);
    CSR_WRITE(CSR_HCOUNTEREN, -1UL);
    CSR_WRITE(CSR_HENVCFG, ENVCFG_STCE);
    CSR_WRITE(CSR_HTIMEDELTA, 0);
    CSR_WRITE(CSR_HVIP, 0);
    CSR_WRITE(CSR_VSTIMECMP, -1UL);
    CSR_WRITE(CSR_VSATP, 0);
    CSR_WRITE(CSR_VSSTATUS, 0);
    poll_ticks = CONSOLE_POLL_TICKS(host.timebase_hz);
    arm_console_poll();
    CSR_SET(sie, 1UL << 5); /* STIE: taken whenever the guest runs (V=1 enables HS interrupts) */
    CSR_WRITE(stvec, (uint64_t)(uintptr_t)hs_trap);
    CSR_WRITE(sscratch, (uint64_t)(uintptr_t)hs_stack_top);
    CSR_SET(CSR_HSTATUS, HSTATUS_SPV | HSTATUS_SPVP);
    CSR_SET(sstatus, SSTATUS_SPP);
    CSR_WRITE(sepc, kernel_gpa);
    register uint64_t a0 __asm__("a0") = 0;
    register uint64_t a1 __asm__("a1") = dtb_gpa;
    __asm__ volatile("sret" ::"r"(a0), "r"(a1) : "memory");
    __builtin_unreachable();
}
