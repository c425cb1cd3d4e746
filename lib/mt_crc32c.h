/* CRC-32C (Castagnoli, reflected, as in iSCSI and ext4): the checksum of the .mtr header, index
 * and footer. The data frames carry zstd's own XXH64. */
#ifndef MT_CRC32C_H
#define MT_CRC32C_H

#include <stddef.h>
#include <stdint.h>

uint32_t mt_crc32c(const void *p, size_t n);

#endif
