/* The GDB remote serial protocol's framing: `$data#cc` packets with a verified checksum, the
 * `+`/`-` acknowledgements, the interrupt byte 0x03, and the hex and binary encodings.
 * Byte in, event out, no I/O: the session (session.c) and the fuzz target drive it. */
#ifndef EMU_GDB_RSP_H
#define EMU_GDB_RSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest packet (data between `$` and `#`) accepted, and the PacketSize advertised. */
#define RSP_PACKET_MAX 16384

typedef enum {
    RSP_NONE,      /* byte taken, nothing complete yet */
    RSP_PACKET,    /* a packet with a good checksum: rsp_parser.buf[0..len) (NUL-terminated) */
    RSP_BAD,       /* a packet with a bad checksum, or too long: to be NAKed (ack mode) */
    RSP_INTERRUPT, /* 0x03 outside a packet */
    RSP_ACK,       /* `+` */
    RSP_NAK,       /* `-`: the peer asks for the last reply again */
} rsp_event;

typedef struct {
    enum { RSP_IDLE, RSP_DATA, RSP_SUM1, RSP_SUM2 } state;
    bool overflow;
    uint8_t sum, given;
    size_t len;
    char buf[RSP_PACKET_MAX + 1];
} rsp_parser;

void rsp_parser_init(rsp_parser *p);
rsp_event rsp_feed(rsp_parser *p, uint8_t byte);

/* Hex helpers: -1 for a non-hex character. */
int rsp_hex_digit(char c);
/* Parses a hex number from *s (at least one digit, at most 16), advancing *s; false otherwise. */
bool rsp_parse_hex(const char **s, uint64_t *out);
/* Writes 2 * n hex characters (no NUL). */
void rsp_hex_encode(char *dst, const uint8_t *src, size_t n);
/* Decodes 2 * n hex characters into n bytes; false on a non-hex character. */
bool rsp_hex_decode(uint8_t *dst, const char *src, size_t n);
/* Undoes the binary escape (`}` then byte ^ 0x20) of src[0..n) into dst (at most n bytes).
 * Returns the decoded length, or (size_t)-1 for a dangling `}`. */
size_t rsp_unescape(uint8_t *dst, const char *src, size_t n);

#endif
