/* Packet boundaries in a trace-unit byte stream, for divergence reports: walks the packets of
 * docs/trace-format.md (header + LEB fields) from offset 0 and prints the ones around a byte. */
#ifndef PKTCTX_H
#define PKTCTX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Length of the packet starting at p[0] (of n available bytes), 0 if malformed or cut. */
size_t pktctx_len(const uint8_t *p, size_t n);
/* Name of the packet type of header byte h. */
const char *pktctx_name(uint8_t h);
/* Prints the `before` packets before the one containing byte `at` and that one (at most 16
 * bytes each, hex), prefixed by `label`. */
void pktctx_print(FILE *f, const char *label, const uint8_t *p, size_t n, size_t at, unsigned before);

#endif
