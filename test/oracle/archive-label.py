#!/usr/bin/python3
"""Oracle: the label of each archive named on the command line, as libpcp reads it.

Prints one JSON list: {"name", "start": [sec, nsec], "end": [sec, nsec], "timezone",
"zoneinfo"} per archive (end = pmGetHighResArchiveEnd; zoneinfo null for v2 archives).
"""
import json
import sys

from pcp import pmapi
from cpmapi import PM_CONTEXT_ARCHIVE


def text(b):
    return b.decode() if isinstance(b, bytes) else b


out = []
for name in sys.argv[1:]:
    ctx = pmapi.pmContext(PM_CONTEXT_ARCHIVE, name)
    label = ctx.pmGetHighResArchiveLabel()
    end = ctx.pmGetHighResArchiveEnd()
    zi = text(label.zoneinfo)
    out.append({"name": name, "start": [label.start.tv_sec, label.start.tv_nsec],
                "end": [end.tv_sec, end.tv_nsec], "timezone": text(label.timezone),
                "zoneinfo": zi if zi else None})
json.dump(out, sys.stdout)
