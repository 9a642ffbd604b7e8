#!/usr/bin/python3
"""Oracle: a fetchgroup's rate conversion of one counter, fetch by fetch (record by record).

Usage: fetchgroup-rate.py ARCHIVE METRIC [INSTANCE]   (honours PCP_COUNTER_WRAP)
Registers METRIC twice as DOUBLE — scale "instant" (the raw value) and scale NULL (a
counter is rate-converted) — plus the result timestamp, then calls pmFetchGroup until it
fails. Prints a JSON list of {"t": [sec, nsec], "raw": [sts, value], "rate": [sts, value]};
a NaN value (the fetchgroup sentinel) is printed as "NaN".
"""
import json
import math
import sys

from pcp import pmapi
from cpmapi import PM_CONTEXT_ARCHIVE, PM_TYPE_DOUBLE

archive, metric = sys.argv[1], sys.argv[2]
instance = sys.argv[3] if len(sys.argv) > 3 else None
fg = pmapi.fetchgroup(PM_CONTEXT_ARCHIVE, archive)
raw = fg.extend_item(metric, PM_TYPE_DOUBLE, "instant", instance)
rate = fg.extend_item(metric, PM_TYPE_DOUBLE, None, instance)
stamp = fg.extend_timespec()


def pair(item):
    v = item.value.d
    return [item.sts.value, "NaN" if math.isnan(v) else v]


out = []
while True:
    try:
        fg.fetch()
    except pmapi.pmErr:
        break
    out.append({"t": [stamp.value.tv_sec, stamp.value.tv_nsec], "raw": pair(raw), "rate": pair(rate)})
json.dump(out, sys.stdout)
