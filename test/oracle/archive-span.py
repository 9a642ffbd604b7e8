#!/usr/bin/python3
"""Oracle for the fleet client's span(): an archive's first and last record as libpcp reads them.

Usage: archive-span.py ARCHIVE
Prints {"start": {"sec": S, "nsec": N}, "end": {"sec": S, "nsec": N}}: the first record's time
(read with pmFetchHighResArchive from the start, not the label's) and pmGetArchiveEnd.
"""
import json
import sys

from pcp import pmapi
import cpmapi as c_api

ctx = pmapi.pmContext(c_api.PM_CONTEXT_ARCHIVE, sys.argv[1])
first = ctx.pmFetchHighResArchive()
start = first.contents.timestamp
out = {"start": {"sec": start.tv_sec, "nsec": start.tv_nsec}}
ctx.pmFreeHighResResult(first)
end = ctx.pmGetArchiveEnd()
out["end"] = {"sec": end.tv_sec, "nsec": end.tv_usec * 1000}
print(json.dumps(out))
