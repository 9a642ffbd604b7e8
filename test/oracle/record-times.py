#!/usr/bin/python3
"""Oracle: exact timestamps of the archive records holding a metric (what pmval -U visits).

Usage: record-times.py ARCHIVE METRIC
Prints a JSON list of [sec, nsec], one per record (pmFetchHighResArchive order) whose
result contains METRIC's pmid; a <mark> record appears as null.
"""
import json
import sys

from pcp import pmapi
from cpmapi import PM_CONTEXT_ARCHIVE, PM_ERR_EOL

archive, metric = sys.argv[1], sys.argv[2]
ctx = pmapi.pmContext(PM_CONTEXT_ARCHIVE, archive)
pmid = ctx.pmLookupName(metric)[0]
out = []
while True:
    try:
        result = ctx.pmFetchHighResArchive()
    except pmapi.pmErr as e:
        if e.args[0] != PM_ERR_EOL:
            raise
        break
    r = result.contents
    if r.numpmid == 0:
        out.append(None)
    elif any(r.get_pmid(i) == pmid for i in range(r.numpmid)):
        out.append([r.timestamp.tv_sec, r.timestamp.tv_nsec])
    ctx.pmFreeHighResResult(result)
json.dump(out, sys.stdout)
