// The C API of the Verilated trace unit (mt_rtl.h): owns the Verilator context and model,
// drives one clock per cycle and collects the bytes the FIFO drains.
#include "mt_rtl.h"

#ifndef VM_TRACE_FST
#define VM_TRACE_FST 0   // the plain build; the FST build defines it to 1
#endif
#ifndef MT_RTL_BUILT_DRAIN
#define MT_RTL_BUILT_DRAIN MT_RTL_MAX_DRAIN   // the RTL's Drain parameter (module.mk: -GDrain)
#endif
#ifndef MT_RTL_BUILT_DEPTH
#define MT_RTL_BUILT_DEPTH MT_RTL_MAX_DEPTH   // the RTL's Depth parameter (module.mk: -GDepth)
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

#include "Vmt_tu.h"
#include "Vmt_tu___024root.h"
#include "verilated.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#endif

struct mt_rtl {
    VerilatedContext *ctx;
    Vmt_tu *top;
#if VM_TRACE_FST
    VerilatedFstC *fst;
#endif
    uint64_t now;
    uint64_t wave_from, wave_to;   // the waveform holds the cycles [wave_from, wave_to)
    bool acc_set, mmio_set;
    bool wr_set;            // the MMIO operation of this cycle is a register write (mt_rtl_tap_at)
    uint8_t *out;           // drained bytes not yet popped: out[out_head .. out_len)
    size_t out_len, out_head, out_cap;
    uint64_t bytes_out;
    unsigned depth, drain;
    bool rd_check;          // a register read this cycle: reg_rdata_o must show rd_expect next
    uint32_t rd_expect, rd_off;
};

extern "C" int mt_rtl_has_fst(void)
{
    return VM_TRACE_FST ? 1 : 0;
}

static void dump(mt_rtl *r, uint64_t t)
{
#if VM_TRACE_FST
    if (r->fst && r->now >= r->wave_from && r->now < r->wave_to)
        r->fst->dump(t);
#else
    (void)r;
    (void)t;
#endif
}

static void clear_inputs(Vmt_tu *top)
{
    // (the straps depth_i/drain_i are set once, at create, and never cleared)
    top->acc_valid_i = 0;
    top->acc_addr_i = 0;
    top->acc_write_i = 0;
    top->acc_kind_i = 0;
    top->acc_tap_i = 0;
    top->reg_rd_i = 0;
    top->reg_wr_i = 0;
    top->reg_addr_i = 0;
    top->reg_wdata_i = 0;
}

static bool out_reserve(mt_rtl *r, size_t more)
{
    if (r->out_head && r->out_head == r->out_len)
        r->out_head = r->out_len = 0;
    if (r->out_len + more <= r->out_cap)
        return true;
    if (r->out_head) {   // compact before growing
        std::memmove(r->out, r->out + r->out_head, r->out_len - r->out_head);
        r->out_len -= r->out_head;
        r->out_head = 0;
        if (r->out_len + more <= r->out_cap)
            return true;
    }
    size_t cap = r->out_cap ? r->out_cap * 2 : 4096;
    while (cap < r->out_len + more)
        cap *= 2;
    uint8_t *p = static_cast<uint8_t *>(std::realloc(r->out, cap));
    if (!p)
        return false;
    r->out = p;
    r->out_cap = cap;
    return true;
}

// Completes the current cycle.  The output ports (bytes drained, FIFO level) depend on registers
// only, so they are already valid for this cycle (settled by the last edge's evaluation); the
// rising edge's eval() settles the inputs of this cycle first (Verilator's input-combinational
// phase), then clocks.  The falling edge is evaluated right away, before the next cycle's inputs
// change, so that it costs nothing: two evaluations per clock, one of them trivial.
static void tick(mt_rtl *r)
{
    Vmt_tu *top = r->top;
    unsigned n = top->out_cnt_o;
    if (n) {
        if (!out_reserve(r, n))
            std::abort();   // out of memory: nothing sensible to return through a clock
        for (unsigned i = 0; i < n; i++)
            r->out[r->out_len++] = static_cast<uint8_t>(top->out_data_o >> (8 * i));   // Drain * 8 bits
        r->bytes_out += n;
    }
    top->clk_i = 1;
    top->eval();
    if (r->rd_check) {
        r->rd_check = false;
        if (top->reg_rdata_o != r->rd_expect) {
            // the registered read port disagrees with the value the API returned: an RTL bug
            std::fprintf(stderr, "mt_rtl: register 0x%03x read at cycle %llu: reg_rdata_o 0x%08x in the "
                                 "next cycle, 0x%08x in the cycle of the read\n", r->rd_off,
                         static_cast<unsigned long long>(r->now), static_cast<unsigned>(top->reg_rdata_o),
                         static_cast<unsigned>(r->rd_expect));
            std::abort();
        }
    }
    dump(r, 2 * r->now + 1);
    top->clk_i = 0;
    top->eval();
    dump(r, 2 * r->now + 2);
    clear_inputs(top);
    r->acc_set = r->mmio_set = r->wr_set = false;
    r->now++;
}

// A register read in the current cycle.  The RTL answers on reg_rdata_o in the next cycle (the
// state at the start of this one); the C API answers at once, so the value is taken from
// reg_rdata_now_o (the same value, formed in this cycle for simulation) and tick() checks the
// registered port against it after the clock edge.
static uint32_t read_now(mt_rtl *r, uint32_t off)
{
    Vmt_tu *top = r->top;
    top->reg_rd_i = 1;
    top->reg_addr_i = (off >> 2) & 0x3FF;
    top->eval();
    r->rd_check = true;
    r->rd_expect = top->reg_rdata_now_o;
    r->rd_off = off;
    return r->rd_expect;
}

extern "C" void mt_rtl_reset(mt_rtl *r)
{
    Vmt_tu *top = r->top;
    clear_inputs(top);
    top->clk_i = 0;
    top->rst_ni = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
    top->clk_i = 0;
    top->rst_ni = 1;
    top->eval();
    r->now = 0;
    r->acc_set = r->mmio_set = r->wr_set = false;
    r->out_len = r->out_head = 0;
    r->bytes_out = 0;
    uint32_t info = read_now(r, 0x014);   // FIFO_INFO
    top->reg_rd_i = 0;
    top->eval();
    r->rd_check = false;   // (not clocked: nothing to check)
    r->depth = (info & 0xFFFF) ? (info & 0xFFFF) : 65536;
    r->drain = (info >> 16) & 0xFF;
}

extern "C" mt_rtl *mt_rtl_create(unsigned depth, unsigned drain, const char *fst_path)
{
    if (!depth)
        depth = MT_RTL_DEFAULT_DEPTH;
    if (!drain)
        drain = MT_RTL_DEFAULT_DRAIN < MT_RTL_BUILT_DRAIN ? MT_RTL_DEFAULT_DRAIN : MT_RTL_BUILT_DRAIN;
    static_assert(MT_RTL_BUILT_DRAIN * 8 <= 8 * sizeof(Vmt_tu::out_data_o), "out_data_o narrower than the drain");
    if (depth < 32 || depth > MT_RTL_BUILT_DEPTH || drain > MT_RTL_BUILT_DRAIN)
        return nullptr;
    if (fst_path && !VM_TRACE_FST)
        return nullptr;
    mt_rtl *r = new (std::nothrow) mt_rtl();
    if (!r)
        return nullptr;
    r->ctx = new (std::nothrow) VerilatedContext;
    if (!r->ctx) {
        delete r;
        return nullptr;
    }
    r->ctx->randReset(0);   // deterministic: every register starts at 0 before reset
    r->top = new (std::nothrow) Vmt_tu(r->ctx, "mt_tu");
    if (!r->top) {
        delete r->ctx;
        delete r;
        return nullptr;
    }
    r->top->depth_i = depth;
    r->top->drain_i = drain;
    r->wave_from = 0;
    r->wave_to = UINT64_MAX;
#if VM_TRACE_FST
    r->fst = nullptr;
    if (fst_path) {
        r->ctx->traceEverOn(true);
        r->fst = new VerilatedFstC;
        r->top->trace(r->fst, 99);
        r->fst->open(fst_path);
    }
#endif
    mt_rtl_reset(r);
    return r;
}

extern "C" void mt_rtl_destroy(mt_rtl *r)
{
    if (!r)
        return;
#if VM_TRACE_FST
    if (r->fst) {
        r->fst->close();
        delete r->fst;
    }
#endif
    r->top->final();
    delete r->top;
    delete r->ctx;
    std::free(r->out);
    delete r;
}

extern "C" void mt_rtl_wave_window(mt_rtl *r, uint64_t from, uint64_t to)
{
    r->wave_from = from;
    r->wave_to = to;
}

extern "C" uint64_t mt_rtl_now(const mt_rtl *r) { return r->now; }
extern "C" unsigned mt_rtl_depth(const mt_rtl *r) { return r->depth; }
extern "C" unsigned mt_rtl_drain(const mt_rtl *r) { return r->drain; }
extern "C" unsigned mt_rtl_max_drain(void) { return MT_RTL_BUILT_DRAIN; }
extern "C" unsigned mt_rtl_max_depth(void) { return MT_RTL_BUILT_DEPTH; }

extern "C" void mt_rtl_advance(mt_rtl *r, uint64_t cycle)
{
    while (r->now < cycle)
        tick(r);
}

extern "C" void mt_rtl_clock(mt_rtl *r, uint64_t n)
{
    mt_rtl_advance(r, r->now + n);
}

extern "C" int mt_rtl_access(mt_rtl *r, const mt_access *a)
{
    if (a->cycle < r->now || (a->cycle == r->now && r->acc_set))
        return -1;
    mt_rtl_advance(r, a->cycle);
    Vmt_tu *top = r->top;
    top->acc_valid_i = 1;
    top->acc_addr_i = a->addr & MT_PADDR_MASK;
    top->acc_write_i = a->write ? 1 : 0;
    // The port has 3 kind bits; kinds 5..7 never pass the 5-bit mask, and neither does any
    // larger kind in the model, so map those to 7 rather than let them alias onto 0..4.
    top->acc_kind_i = a->kind < 8 ? a->kind : 7;
    top->acc_tap_i = a->tap & 1;
    r->acc_set = true;
    return 0;
}

extern "C" int mt_rtl_mmio_write(mt_rtl *r, uint64_t cycle, uint32_t off, uint32_t val)
{
    if (cycle < r->now || (cycle == r->now && r->mmio_set))
        return -1;
    mt_rtl_advance(r, cycle);
    r->mmio_set = true;
    if ((off & 3) || off >= 0x1000)
        return 0;   // not a register: ignored, like the hardware's byte-lane decode
    Vmt_tu *top = r->top;
    r->wr_set = true;
    top->reg_wr_i = 1;
    top->reg_addr_i = (off >> 2) & 0x3FF;
    top->reg_wdata_i = val;
    return 0;
}

extern "C" uint32_t mt_rtl_mmio_read(mt_rtl *r, uint64_t cycle, uint32_t off)
{
    if (cycle < r->now || (cycle == r->now && r->mmio_set))
        return 0;
    mt_rtl_advance(r, cycle);
    r->mmio_set = true;
    if ((off & 3) || off >= 0x1000)
        return 0;
    return read_now(r, off);
}

// The session's latched tap and TAP as written are flip-flops of mt_tu_ctrl and mt_tu_regs, which
// Verilator keeps as members of the model's root under their hierarchical names.  They are not a
// port: the hardware compares the tap inside the unit (mt_tu_capture); only a simulation that must
// choose which of two same-cycle accesses to give (the emulator's hook) asks.  A netlist without
// those names (the gate-level build) answers -1 through the second template.
template <typename Root, typename = void> struct tap_regs {
    static int tap(const Root *) { return -1; }
};
template <typename Root>
struct tap_regs<Root, std::void_t<decltype(Root::mt_tu__DOT__u_ctrl__DOT__active_q),
                                  decltype(Root::mt_tu__DOT__u_ctrl__DOT__c_tap_q),
                                  decltype(Root::mt_tu__DOT__u_regs__DOT__tap_q)>> {
    static int tap(const Root *s)
    {
        return (s->mt_tu__DOT__u_ctrl__DOT__active_q ? s->mt_tu__DOT__u_ctrl__DOT__c_tap_q
                                                       : s->mt_tu__DOT__u_regs__DOT__tap_q) & 1;
    }
};

extern "C" int mt_rtl_tap(const mt_rtl *r)
{
    return tap_regs<Vmt_tu___024root>::tap(r->top->rootp);
}

extern "C" int mt_rtl_tap_at(mt_rtl *r, uint64_t cycle)
{
    if (r->wr_set && cycle > r->now)
        mt_rtl_advance(r, cycle);
    return mt_rtl_tap(r);
}

extern "C" size_t mt_rtl_pop(mt_rtl *r, uint8_t *buf, size_t cap)
{
    size_t n = r->out_len - r->out_head;
    if (n > cap)
        n = cap;
    if (n)
        std::memcpy(buf, r->out + r->out_head, n);
    r->out_head += n;
    return n;
}

extern "C" unsigned mt_rtl_fifo_level(mt_rtl *r)
{
    return r->top->fifo_level_o;   // a register output: valid without an eval()
}

extern "C" size_t mt_rtl_pending(const mt_rtl *r) { return r->out_len - r->out_head; }
extern "C" uint64_t mt_rtl_bytes_out(const mt_rtl *r) { return r->bytes_out; }
