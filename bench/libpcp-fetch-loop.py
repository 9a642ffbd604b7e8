#!/usr/bin/python3
"""Native side of the live benchmarks: libpcp (python3-pcp) fetching from pmcd in a loop.

usage: libpcp-fetch-loop.py HOST latency N METRIC...    N timed pmFetch calls after 20 warm-up
       libpcp-fetch-loop.py HOST duration SEC METRIC... pmFetch back to back for SEC seconds
stdout: {"fetches": n, "seconds": s, "latencies_ms": [...]} (latencies only in latency mode)
"""
import json
import sys
import time

from pcp import pmapi
import cpmapi as c_api


def main():
    host, mode, amount, metrics = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4:]
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_HOST, host)
    pmids = ctx.pmLookupName(metrics)
    ctx.pmLookupDescs(pmids)
    for _ in range(20):
        pmapi.LIBPCP.pmFreeResult(ctx.pmFetch(pmids))
    lat = []
    n = 0
    t0 = time.perf_counter()
    if mode == "latency":
        for _ in range(int(amount)):
            a = time.perf_counter()
            r = ctx.pmFetch(pmids)
            lat.append((time.perf_counter() - a) * 1000)
            pmapi.LIBPCP.pmFreeResult(r)
        n = int(amount)
    else:
        end = t0 + amount
        while time.perf_counter() < end:
            pmapi.LIBPCP.pmFreeResult(ctx.pmFetch(pmids))
            n += 1
    out = {"fetches": n, "seconds": time.perf_counter() - t0}
    if lat:
        out["latencies_ms"] = lat
    json.dump(out, sys.stdout)


main()
