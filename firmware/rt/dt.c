#include "dt.h"

#include <string.h>

enum {
	DT_MAGIC = 0xd00dfeed,
	DT_TOK_BEGIN_NODE = 1,
	DT_TOK_END_NODE = 2,
	DT_TOK_PROP = 3,
	DT_TOK_NOP = 4,
	DT_TOK_END = 9,
	DT_MAX_DEPTH = 16,
};

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

const char *dt_open(struct dt *dt, const void *blob)
{
	const uint8_t *b = blob;
	if (b == NULL)
		return "no device tree address";
	if (be32(b) != DT_MAGIC)
		return "bad device-tree magic";
	uint32_t total = be32(b + 4);
	uint32_t off_struct = be32(b + 8), off_strings = be32(b + 12), version = be32(b + 20);
	uint32_t size_strings = be32(b + 32), size_struct = be32(b + 36);
	if (version < 16)
		return "device-tree version older than 16";
	if (off_struct > total || size_struct > total - off_struct || off_strings > total ||
	    size_strings > total - off_strings)
		return "device-tree blocks outside its total size";
	*dt = (struct dt){ b, total, off_struct, size_struct, off_strings, size_strings };
	return NULL;
}

/* One token of the structure block. */
struct token {
	uint32_t kind;
	const char *name;      /* node name (BEGIN_NODE) or property name (PROP) */
	const uint8_t *value;  /* PROP */
	uint32_t len;          /* PROP */
};

/* Reads the token at *off and advances past it.  False at the end or on a malformed block. */
static bool next_token(const struct dt *dt, uint32_t *off, struct token *t)
{
	const uint8_t *s = dt->blob + dt->off_struct;
	uint32_t end = dt->size_struct;
	for (;;) {
		if (end < 4 || *off > end - 4)
			return false;
		t->kind = be32(s + *off);
		*off += 4;
		if (t->kind == DT_TOK_NOP)
			continue;
		if (t->kind == DT_TOK_BEGIN_NODE) {
			t->name = (const char *)s + *off;
			uint32_t n = (uint32_t)strnlen(t->name, end - *off);
			if (n == end - *off)
				return false;
			*off = (*off + n + 1 + 3) & ~3u;
			return true;
		}
		if (t->kind == DT_TOK_PROP) {
			if (*off > end - 8)
				return false;
			t->len = be32(s + *off);
			uint32_t nameoff = be32(s + *off + 4);
			*off += 8;
			if (t->len > end - *off || nameoff >= dt->size_strings)
				return false;
			t->name = (const char *)dt->blob + dt->off_strings + nameoff;
			/* the name must end inside the strings block (callers strcmp it) */
			if (strnlen(t->name, dt->size_strings - nameoff) == dt->size_strings - nameoff)
				return false;
			t->value = s + *off;
			*off = (*off + t->len + 3) & ~3u;
			return true;
		}
		return t->kind == DT_TOK_END_NODE;  /* DT_TOK_END or garbage: stop */
	}
}

/* Does path component `want` (no '/') name node `name`?  "memory" matches "memory@80000000". */
static bool component_matches(const char *want, size_t want_len, const char *name)
{
	if (strncmp(want, name, want_len) != 0)
		return false;
	return name[want_len] == '\0' || (name[want_len] == '@' && memchr(want, '@', want_len) == NULL);
}

const void *dt_getprop(const struct dt *dt, const char *path, const char *name, uint32_t *len)
{
	/* Split the path into components as we go: matched = how many leading components the
	 * current node stack matches. */
	const char *comp[DT_MAX_DEPTH];
	size_t comp_len[DT_MAX_DEPTH];
	int ncomp = 0;
	for (const char *p = path; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (ncomp == DT_MAX_DEPTH)
			return NULL;
		comp[ncomp] = p;
		comp_len[ncomp++] = n;
		p += n;
	}
	uint32_t off = 0;
	int depth = 0, matched = 0;
	struct token t;
	while (next_token(dt, &off, &t)) {
		if (t.kind == DT_TOK_BEGIN_NODE) {
			depth++;
			/* depth 1 is the root node (empty name); its children are at depth 2. */
			if (depth >= 2 && matched == depth - 2 && matched < ncomp &&
			    component_matches(comp[matched], comp_len[matched], t.name))
				matched++;
		} else if (t.kind == DT_TOK_END_NODE) {
			if (depth >= 2 && matched == depth - 1)
				matched--;
			if (--depth <= 0)
				return NULL;
		} else if (t.kind == DT_TOK_PROP && matched == ncomp && depth == ncomp + 1 &&
			   strcmp(t.name, name) == 0) {
			if (len)
				*len = t.len;
			return t.value;
		}
	}
	return NULL;
}

/* Is `value` one of the NUL-separated strings in a string-list property? */
static bool stringlist_contains(const uint8_t *list, uint32_t len, const char *value)
{
	size_t want = strlen(value);
	uint32_t i = 0;
	while (i < len) {
		const char *s = (const char *)list + i;
		size_t n = strnlen(s, len - i);
		if (n == want && memcmp(s, value, n) == 0)
			return true;
		i += (uint32_t)n + 1;
	}
	return false;
}

static uint64_t read_cells(const uint8_t *p, uint32_t cells)
{
	uint64_t v = 0;
	for (uint32_t i = 0; i < cells; i++)
		v = v << 32 | be32(p + 4 * i);
	return v;
}

bool dt_find_reg(const struct dt *dt, const char *prop, const char *value, struct dt_range *out)
{
	/* Per depth: the cells a node declares for its children, and whether it matches. Property
	 * tokens of a node precede its children (spec 5.4.1), so everything about a node is known
	 * by the time its first child or its END_NODE arrives; decide at END_NODE. */
	struct level {
		uint32_t addr_cells, size_cells;
		bool match;
		const uint8_t *reg;
		uint32_t reg_len;
	} lv[DT_MAX_DEPTH + 1];
	uint32_t off = 0;
	int depth = 0;
	struct token t;
	lv[0] = (struct level){ 2, 1, false, NULL, 0 };  /* the root's parent: spec defaults */
	while (next_token(dt, &off, &t)) {
		if (t.kind == DT_TOK_BEGIN_NODE) {
			if (++depth > DT_MAX_DEPTH)
				return false;
			lv[depth] = (struct level){ 2, 1, false, NULL, 0 };
		} else if (t.kind == DT_TOK_PROP && depth >= 1) {
			struct level *l = &lv[depth];
			if (strcmp(t.name, "#address-cells") == 0 && t.len == 4)
				l->addr_cells = be32(t.value);
			else if (strcmp(t.name, "#size-cells") == 0 && t.len == 4)
				l->size_cells = be32(t.value);
			else if (strcmp(t.name, "reg") == 0) {
				l->reg = t.value;
				l->reg_len = t.len;
			}
			if (strcmp(t.name, prop) == 0 && stringlist_contains(t.value, t.len, value))
				l->match = true;
		} else if (t.kind == DT_TOK_END_NODE) {
			if (depth < 1)
				return false;
			struct level *l = &lv[depth], *parent = &lv[depth - 1];
			uint32_t ac = parent->addr_cells, sc = parent->size_cells;
			/* Buses on `virt` use empty `ranges` (identity), so a child's reg is already a
			 * physical address; translation through non-empty ranges is not needed here. */
			if (l->match && l->reg && ac >= 1 && ac <= 2 && sc <= 2 && l->reg_len >= 4 * (ac + sc)) {
				out->base = read_cells(l->reg, ac);
				out->size = read_cells(l->reg + 4 * ac, sc);
				return true;
			}
			if (--depth <= 0)
				return false;
		}
	}
	return false;
}
