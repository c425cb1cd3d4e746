/* libFuzzer target: metatrace's foreign-trace readers on arbitrary file contents: HMTT's 6-byte
 * records (host/hmtt.c), the CSV reader (host/traceio.c: cycle,address,rw and the 7-column form)
 * and the HMTT kernel PTE records; every record each gives is read. The first byte picks the
 * reader, the rest is the file. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "host/hmtt.h"
#include "host/traceio.h"
#include "memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *path = fuzz_memfile_set(data + 1, size - 1); /* tests/fuzz/memfile.c */
    char err[600];
    ht_source *s = data[0] & 1 ? trace_open_csv(path, err, sizeof err)
                               : hmtt_open(path, 1 + ((data[0] >> 1) & 7), err, sizeof err);
    if (s) {
        ht_record r;
        for (int pass = 0; pass < 2; pass++) {
            uint64_t n = 0;
            while (ht_next(s, &r) == 1 && ++n < 1000000)
                ;
            if (s->rewind(s) != 0)
                break;
        }
        ht_close(s);
    }
    if (size >= 14) { /* the kernel PTE records of the same bytes */
        for (size_t i = 1; i + KPTE_RECORD_BYTES <= size; i += KPTE_RECORD_BYTES) {
            kpte_record k;
            kpte_unpack(data + i, &k);
            uint8_t back[KPTE_RECORD_BYTES];
            kpte_pack(&k, back);
        }
    }
    return 0;
}
