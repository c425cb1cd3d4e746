/* Text trace formats other tools read, one access a line:
 *   csv        "cycle,address,rw" (with that header), what `import --from csv` reads
 *   dramsim2   DRAMSim2's k6 trace:  "0x<addr> P_MEM_RD|P_MEM_WR <cycle>"
 *              (DRAMSim2 picks the parser from the file name: name the file k6_*.trc)
 *   dramsim3   DRAMsim3's trace:     "0x<addr> READ|WRITE <cycle>"
 *   ramulator  Ramulator's memory-trace mode: "0x<addr> R|W" (no time)
 * HMTT binary records are in hmtt.h. */
#ifndef HOST_EXPORTERS_H
#define HOST_EXPORTERS_H

#include <stdint.h>
#include <stdio.h>

typedef enum { EXP_CSV = 0, EXP_DRAMSIM2, EXP_DRAMSIM3, EXP_RAMULATOR, EXP_HMTT, EXP_COUNT } export_kind;

int export_parse_kind(const char *s, export_kind *out); /* "dramsim" = dramsim3 */
const char *export_kind_name(export_kind k);
void export_header(FILE *f, export_kind k);
void export_line(FILE *f, export_kind k, uint64_t cycle, uint64_t addr, int write);

#endif
