#!/usr/bin/python3
"""Oracle for archive windows on a time grid: libpcp's interpolated values, fetched either
stepped (pmSetModeHighRes(PM_MODE_INTERP, t_k, delta) before every pmFetch, as pmtime drives
pmchart) or sequentially (one pmSetModeHighRes, then a pmFetch per sample, as pmval does).

stdin: JSON {"archive": A, "metrics": [names], "derived": [[name, expr], ...],
             "origin": [sec, nsec], "delta": [sec, nsec], "count": n, "stepped": bool}
  t_k = origin + k * delta, exact nanosecond integers, k = 0 .. count-1.
stdout: JSON list, one entry per k: {"error": code} for a failed fetch, else
  {"t": [sec, nsec], "raw": {NAME: {INST: value}}, "rate": {NAME: {INST: value | null}}}
  INST is the instance name ("" for singular metrics); values as doubles (pmExtractValue).
  "rate" holds counters only, as pmval and pmchart compute them between consecutive fetched
  samples: (cur - prev) / (scale * (t - tprev)), scale bringing a time dimension to seconds,
  null without a previous value for the instance or when negative.
"""
import ctypes
import json
import math
import sys

from pcp import pmapi
import cpmapi as c_api

LIBPCP = pmapi.LIBPCP
NS = 1000000000
NUMERIC = (c_api.PM_TYPE_32, c_api.PM_TYPE_U32, c_api.PM_TYPE_64, c_api.PM_TYPE_U64,
           c_api.PM_TYPE_FLOAT, c_api.PM_TYPE_DOUBLE)


def main():
    req = json.load(sys.stdin)
    for name, expr in req.get("derived", []):
        err = ctypes.c_char_p()
        if LIBPCP.pmRegisterDerivedMetric(name.encode(), expr.encode(), ctypes.byref(err)) != 0:
            raise SystemExit("pmRegisterDerivedMetric %s: %s" % (name, err.value))
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_ARCHIVE, req["archive"])
    names = req["metrics"]
    pmids = ctx.pmLookupName(names)
    descs = ctx.pmLookupDescs(pmids)
    instnames = []
    scales = []
    for d in descs:
        m = {}
        if d.indom != c_api.PM_INDOM_NULL:
            ids, nms = ctx.pmGetInDomArchive(d)
            m = dict(zip(ids, nms))
        instnames.append(m)
        s = 1.0
        if d.sem == c_api.PM_SEM_COUNTER and d.units.dimTime != 0:
            if d.units.scaleTime > c_api.PM_TIME_SEC:
                s = math.pow(60, c_api.PM_TIME_SEC - d.units.scaleTime)
            else:
                s = math.pow(1000, c_api.PM_TIME_SEC - d.units.scaleTime)
        scales.append(s)
    origin = req["origin"][0] * NS + req["origin"][1]
    delta = req["delta"][0] * NS + req["delta"][1]
    dts = pmapi.timespec(delta // NS, delta % NS)
    arr = (pmapi.pmID * len(pmids))(*pmids)
    if not req["stepped"]:
        ctx.pmSetModeHighRes(c_api.PM_MODE_INTERP, pmapi.timespec(origin // NS, origin % NS), dts)
    out = []
    prev = None
    for k in range(req["count"]):
        if req["stepped"]:
            t = origin + k * delta
            ctx.pmSetModeHighRes(c_api.PM_MODE_INTERP, pmapi.timespec(t // NS, t % NS), dts)
        try:
            r = ctx.pmFetchHighRes(arr)
        except pmapi.pmErr as e:
            out.append({"error": e.args[0]})
            continue
        rc = r.contents
        t = (rc.timestamp.tv_sec, rc.timestamp.tv_nsec)
        treal = t[0] + t[1] / 1e9
        raw, rate, cur = {}, {}, []
        for j, (name, d) in enumerate(zip(names, descs)):
            vals = {}
            if d.type in NUMERIC:
                for i in range(max(rc.get_numval(j), 0)):
                    vl = rc.get_vlist(j, i)
                    x = pmapi.pmContext.pmExtractValue(rc.get_valfmt(j), vl, d.type, c_api.PM_TYPE_DOUBLE).dref(c_api.PM_TYPE_DOUBLE)
                    vals["" if vl.inst == -1 else instnames[j].get(vl.inst, str(vl.inst))] = x
            cur.append(vals)
            raw[name] = vals
            if d.sem == c_api.PM_SEM_COUNTER:
                rate[name] = {}
                for inst, x in vals.items():
                    v = None
                    if prev is not None and inst in prev[1][j]:
                        dt = scales[j] * (treal - prev[0])
                        dv = x - prev[1][j][inst]
                        if dv >= 0:
                            v = 0.0 if dt == 0 else dv / dt
                    rate[name][inst] = v
        prev = (treal, cur)
        out.append({"t": list(t), "raw": raw, "rate": rate})
    json.dump(out, sys.stdout)


main()
