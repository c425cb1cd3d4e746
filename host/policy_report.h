/* Printing policy results: an aligned ranked table, CSV or JSON, with the recommendation. */
#ifndef HOST_POLICY_REPORT_H
#define HOST_POLICY_REPORT_H

#include <stdio.h>

#include "host/policy.h"

typedef enum { REPORT_TABLE, REPORT_CSV, REPORT_JSON } report_format;

int report_parse_format(const char *s, report_format *out);
void policy_report(FILE *f, report_format fmt, const char *trace, const policy_config *cfg,
                   const policy_result *r);

#endif
