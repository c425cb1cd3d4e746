#include "params.h"

#include <stdio.h>
#include <string.h>

/* Parses [s, s+len) as an unsigned number with an optional K/M/G suffix. */
static bool parse_number(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0, base = 10, scale = 1;
	size_t i = 0;
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (len > i && base == 10) {
		char last = s[len - 1];
		if (last == 'K' || last == 'k') scale = 1ull << 10;
		else if (last == 'M' || last == 'm') scale = 1ull << 20;
		else if (last == 'G' || last == 'g') scale = 1ull << 30;
		if (scale != 1)
			len--;
	}
	if (i == len)
		return false;
	for (; i < len; i++) {
		char c = s[i];
		uint64_t d;
		if (c >= '0' && c <= '9') d = (uint64_t)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f') d = (uint64_t)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F') d = (uint64_t)(c - 'A' + 10);
		else return false;
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	if (v > UINT64_MAX / scale)
		return false;
	*out = v * scale;
	return true;
}

static void list_keys(const struct param *params, size_t count, char *err, size_t err_len)
{
	size_t used = strlen(err);
	for (size_t i = 0; i < count && used + 1 < err_len; i++) {
		snprintf(err + used, err_len - used, "%s%s", i ? " " : " (known: ", params[i].key);
		used = strlen(err);
	}
	if (used + 1 < err_len)
		snprintf(err + used, err_len - used, ")");
}

bool params_parse(const char *args, struct param *params, size_t count, char *err, size_t err_len)
{
	const char *p = args ? args : "";
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			return true;
		const char *word = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n')
			p++;
		size_t word_len = (size_t)(p - word);
		const char *eq = memchr(word, '=', word_len);
		if (!eq) {
			snprintf(err, err_len, "bootargs: '%.*s' is not key=value", (int)word_len, word);
			return false;
		}
		size_t key_len = (size_t)(eq - word);
		struct param *found = NULL;
		for (size_t i = 0; i < count; i++)
			if (strlen(params[i].key) == key_len && memcmp(params[i].key, word, key_len) == 0)
				found = &params[i];
		if (!found) {
			snprintf(err, err_len, "bootargs: unknown parameter '%.*s'", (int)key_len, word);
			list_keys(params, count, err, err_len);
			return false;
		}
		const char *val = eq + 1;
		if (!parse_number(val, (size_t)(p - val), &found->value)) {
			snprintf(err, err_len, "bootargs: '%.*s': not a number (decimal or 0x hex, optional K/M/G)",
				 (int)word_len, word);
			return false;
		}
	}
}

uint64_t param_get(const struct param *params, size_t count, const char *key)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(params[i].key, key) == 0)
			return params[i].value;
	return 0;
}
