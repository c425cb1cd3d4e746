#include "trace.h"

#include <stdio.h>

#include "lib/mt_regs.h"

/* A MARKER write is lost while the previous one is still pending (STATUS.MARKER_BUSY): wait for
 * it, but never forever — a unit that stays busy is reported by MARKER_LOST in the stream. */
#define MARKER_WAIT_LIMIT 100000u
/* Starting while the previous session is still writing END is ignored: wait for BUSY to clear. */
#define IDLE_WAIT_LIMIT 10000000u

static inline uint32_t rd(const struct trace_unit *tu, uint32_t off)
{
	return *(volatile const uint32_t *)(tu->base + off);
}

static inline void wr(const struct trace_unit *tu, uint32_t off, uint32_t v)
{
	*(volatile uint32_t *)(tu->base + off) = v;
}

bool trace_probe(struct trace_unit *tu, const struct dt *dt)
{
	struct dt_range r;
	tu->present = false;
	tu->base = 0;
	if (!dt_find_reg(dt, "compatible", TRACE_UNIT_COMPATIBLE, &r))
		return false;
	if (r.size < MT_REGS_SIZE) {
		printf("trace: unit at 0x%llx: window of %llu bytes is smaller than the register map; ignoring it\n",
		       (unsigned long long)r.base, (unsigned long long)r.size);
		return false;
	}
	tu->base = (uintptr_t)r.base;
	uint32_t id = rd(tu, MT_REG_ID), version = rd(tu, MT_REG_VERSION);
	if (id != MT_ID_VALUE || version >> 16 != MT_VERSION_VALUE >> 16) {
		printf("trace: unit at 0x%llx reads ID 0x%08lx version 0x%08lx, expected 0x%08lx version %lu.x; ignoring it\n",
		       (unsigned long long)r.base, (unsigned long)id, (unsigned long)version,
		       (unsigned long)MT_ID_VALUE, (unsigned long)(MT_VERSION_VALUE >> 16));
		tu->base = 0;
		return false;
	}
	tu->present = true;
	return true;
}

static void write_len(const struct trace_unit *tu, uint32_t lo_reg, uint32_t hi_reg, uint64_t len)
{
	wr(tu, lo_reg, (uint32_t)len);
	wr(tu, hi_reg, (uint32_t)(len >> 32) & 0xff);
}

static uint64_t read_len(const struct trace_unit *tu, uint32_t lo_reg, uint32_t hi_reg)
{
	return (uint64_t)(rd(tu, hi_reg) & 0xff) << 32 | rd(tu, lo_reg);
}

bool trace_config(const struct trace_unit *tu, const struct trace_settings *s)
{
	if (!tu->present)
		return false;
	/* Lengths are 40-bit and rates 32-bit registers: refuse what would be silently truncated. */
	if (s->burst.length >> 40 || s->span.length >> 40 || s->burst.rate >> 32 || s->span.rate >> 32 ||
	    s->burst.format > MT_FMT_FIELD_MASK || s->span.format > MT_FMT_FIELD_MASK)
		return false;
	wr(tu, MT_REG_KIND_MASK, s->kinds);
	wr(tu, MT_REG_TAP, s->tap);
	wr(tu, MT_REG_FMT, s->burst.format << MT_FMT_H_SHIFT | s->span.format << MT_FMT_L_SHIFT);
	wr(tu, MT_REG_RATE_H, (uint32_t)s->burst.rate);
	wr(tu, MT_REG_RATE_L, (uint32_t)s->span.rate);
	write_len(tu, MT_REG_LEN_H_LO, MT_REG_LEN_H_HI, s->burst.length);
	write_len(tu, MT_REG_LEN_L_LO, MT_REG_LEN_L_HI, s->span.length);
	return true;
}

bool trace_get_config(const struct trace_unit *tu, struct trace_settings *s)
{
	if (!tu->present)
		return false;
	uint32_t fmt = rd(tu, MT_REG_FMT);
	s->kinds = rd(tu, MT_REG_KIND_MASK);
	s->tap = rd(tu, MT_REG_TAP);
	s->burst.format = fmt >> MT_FMT_H_SHIFT & MT_FMT_FIELD_MASK;
	s->span.format = fmt >> MT_FMT_L_SHIFT & MT_FMT_FIELD_MASK;
	s->burst.rate = rd(tu, MT_REG_RATE_H);
	s->span.rate = rd(tu, MT_REG_RATE_L);
	s->burst.length = read_len(tu, MT_REG_LEN_H_LO, MT_REG_LEN_H_HI);
	s->span.length = read_len(tu, MT_REG_LEN_L_LO, MT_REG_LEN_L_HI);
	return true;
}

bool trace_active(const struct trace_unit *tu)
{
	return tu->present && (rd(tu, MT_REG_STATUS) & MT_STATUS_ACTIVE);
}

void trace_start(const struct trace_unit *tu)
{
	if (!tu->present || trace_active(tu))
		return;
	for (uint32_t i = 0; i < IDLE_WAIT_LIMIT && (rd(tu, MT_REG_STATUS) & MT_STATUS_BUSY); i++)
		;
	wr(tu, MT_REG_CTRL, MT_CTRL_ENABLE);
}

void trace_stop(const struct trace_unit *tu)
{
	if (tu->present)
		wr(tu, MT_REG_CTRL, 0);
}

void trace_marker(const struct trace_unit *tu, uint32_t id)
{
	if (!tu->present)
		return;
	for (uint32_t i = 0; i < MARKER_WAIT_LIMIT && (rd(tu, MT_REG_STATUS) & MT_STATUS_MARKER_BUSY); i++)
		;
	wr(tu, MT_REG_MARKER, id);
}

bool trace_counters(const struct trace_unit *tu, struct trace_counters *c)
{
	if (!tu->present)
		return false;
	c->status = rd(tu, MT_REG_STATUS);
	c->dropped = rd(tu, MT_REG_DROPPED);
	uint32_t lo = rd(tu, MT_REG_SAMPLES_LO);  /* reading LO latches HI */
	c->samples = (uint64_t)(rd(tu, MT_REG_SAMPLES_HI) & 0xffff) << 32 | lo;
	lo = rd(tu, MT_REG_BYTES_LO);
	c->bytes = (uint64_t)(rd(tu, MT_REG_BYTES_HI) & 0xffff) << 32 | lo;
	return true;
}
