#!/bin/sh
# The short fidelity run `make test` does (seconds): tests/fidelity/fidelity.sh --short, whose
# PASS/FAIL lines are the checks: the stack-distance LRU equals one simulation per configuration,
# the online truth equals the every-access trace, the reduce mode is exact, the spatial mode is
# exact at rate 1 and within the bound at its default rate.
# test-timeout: 600
exec "$(dirname "$0")/fidelity.sh" --short
