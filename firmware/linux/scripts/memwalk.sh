#!/bin/sh
# A userland workload for traced boots (mt.script=memwalk.sh): fills a tmpfs file, copies,
# checksums and sorts it a few times, so page cache, anonymous memory and the kernel's copy
# routines all show up in the trace. ROUNDS (default 4) scales it.
rounds=${ROUNDS:-4}
i=0
while [ $i -lt $rounds ]; do
  dd if=/dev/zero of=/tmp/a bs=64k count=64 2>/dev/null
  seq 1 20000 | sort -r > /tmp/b
  cp /tmp/a /tmp/c
  md5sum /tmp/b /tmp/c
  rm -f /tmp/a /tmp/b /tmp/c
  i=$((i + 1))
done
echo "memwalk: $rounds rounds done"
