#!/usr/bin/python3
"""Oracle for `pmdash values --json`: pmval's sampling on libpcp, printed in pmdash's format.

argv: JSON {"archive": "A[,B]", "metrics": [names], "start": -S text | null,
        "finish": -T text | null, "interval": -t text, "samples": int | null, "raw": bool,
        "instances": [names] | null}; -S/-T/-t are parsed by libpcp's pmParseHighResTimeWindow
        and pmParseHighResInterval, as pmval's option parsing does (offset forms: no zone).
stdout: JSON lines, exactly what `pmdash values --json` prints:
  {"kind":"header","metrics":{NAME:{"pmid","type","sem","indom","units"}}}
  {"kind":"sample","time":ISO-8601 UTC with 9 digits,"values":{NAME:{INSTANCE:value}}}
Sampling as pmval 6.0.3: pmSetMode(PM_MODE_INTERP, timeval origin, whole milliseconds) and
pmFetch of all metrics per sample; samples = -s, else (int)((finish - origin) / interval) + 1
with pmtimespecToReal; stop at PM_ERR_EOL or a result after finish. Counters (unless raw) are
rates as pmval computes them: (cur - prev) / (scale * (toReal(t1) - toReal(t0))), null on the
first sample, when the previous sample lacks the instance, or when negative (a decrease
without PCP_COUNTER_WRAP, which adds 2^32 / 2^64 once).
"""
import ctypes
import datetime
import json
import math
import os
import sys

from pcp import pmapi
import cpmapi as c_api

LIBPCP = pmapi.LIBPCP
LIBPCP.pmtimespecToReal.restype = ctypes.c_double
LIBPCP.pmtimespecToReal.argtypes = [ctypes.POINTER(pmapi.timespec)]


def to_real(sec, nsec):
    return LIBPCP.pmtimespecToReal(ctypes.byref(pmapi.timespec(sec, nsec)))


def iso(sec, nsec):
    d = datetime.datetime.fromtimestamp(sec, datetime.timezone.utc)
    return d.strftime("%Y-%m-%dT%H:%M:%S") + ".%09dZ" % nsec


def num(v):
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return "null"
        return repr(v)
    return str(v)


def main():
    req = json.loads(sys.argv[1])
    wrap = os.environ.get("PCP_COUNTER_WRAP") is not None
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_ARCHIVE, req["archive"])
    names = req["metrics"]
    pmids = ctx.pmLookupName(names)
    descs = ctx.pmLookupDescs(pmids)
    instnames = []
    for d in descs:
        m = {}
        if d.indom != c_api.PM_INDOM_NULL:
            try:
                ids, nms = ctx.pmGetInDomArchive(d)
                m = dict(zip(ids, nms))
            except pmapi.pmErr:
                pass
        instnames.append(m)
    if req.get("instances"):
        done = set()
        for d, m in zip(descs, instnames):
            if d.indom == c_api.PM_INDOM_NULL or d.indom in done:
                continue
            done.add(d.indom)
            byname = {v: k for k, v in m.items()}
            ids = []
            for w in req["instances"]:
                if w in byname:
                    ids.append(byname[w])
                else:
                    ids.append([k for k, v in m.items() if v.split(" ")[0] == w][0])
            ctx.pmDelProfile(d, None)
            ctx.pmAddProfile(d, ids)

    label = ctx.pmGetArchiveLabel()
    start = (label.start.tv_sec, label.start.tv_usec * 1000)
    try:
        hl = pmapi.pmHighResLogLabel()
        LIBPCP.pmGetHighResArchiveLabel(ctypes.byref(hl))
        start = (hl.start.tv_sec, hl.start.tv_nsec)
    except AttributeError:
        pass
    end_ts = ctx.pmGetHighResArchiveEnd()
    ls, le = pmapi.timespec(start[0], start[1]), pmapi.timespec(end_ts.tv_sec, end_ts.tv_nsec)
    rs, re_, ro = pmapi.timespec(), pmapi.timespec(), pmapi.timespec()
    err = ctypes.c_char_p()
    sw = req.get("start")
    fw = req.get("finish")
    sts = LIBPCP.pmParseHighResTimeWindow(sw.encode() if sw else None, fw.encode() if fw else None, None, None,
                                          ctypes.byref(ls), ctypes.byref(le), ctypes.byref(rs), ctypes.byref(re_),
                                          ctypes.byref(ro), ctypes.byref(err))
    if sts < 0:
        raise SystemExit("pmParseHighResTimeWindow: %s" % err.value)
    origin = (ro.tv_sec, ro.tv_nsec)
    finish = (re_.tv_sec, re_.tv_nsec)
    iv = pmapi.timespec()
    sts = LIBPCP.pmParseHighResInterval(req["interval"].encode(), ctypes.byref(iv), ctypes.byref(err))
    if sts < 0:
        raise SystemExit("pmParseHighResInterval: %s" % err.value)
    isec, insec = iv.tv_sec, iv.tv_nsec
    samples = req.get("samples")
    if samples is None:
        n = int((to_real(*finish) - to_real(*origin)) / to_real(isec, insec))
        samples = 0 if n < 0 else n + 1
    step_ms = int(isec * 1e3 + (insec // 1000) / 1e3)
    ctx.pmSetMode(c_api.PM_MODE_INTERP | c_api.PM_XTB_SET(c_api.PM_TIME_MSEC),
                  pmapi.timeval(origin[0], origin[1] // 1000), step_ms)

    header = []
    for name, d, p in zip(names, descs, pmids):
        indom = "null" if d.indom == c_api.PM_INDOM_NULL else json.dumps(ctx.pmInDomStr(d))
        header.append("%s:{\"pmid\":%s,\"type\":%s,\"sem\":%s,\"indom\":%s,\"units\":%s}" % (
            json.dumps(name), json.dumps(ctx.pmIDStr(p)), json.dumps(ctx.pmTypeStr(d.type)),
            json.dumps(ctx.pmSemStr(d.sem)), indom, json.dumps(ctx.pmUnitsStr(d.units))))
    out = ["{\"kind\":\"header\",\"metrics\":{%s}}" % ",".join(header)]

    scales = []
    for d in descs:
        s = 1.0
        if d.sem == c_api.PM_SEM_COUNTER and d.units.dimTime != 0:
            if d.units.scaleTime > c_api.PM_TIME_SEC:
                s = math.pow(60, c_api.PM_TIME_SEC - d.units.scaleTime)
            else:
                s = math.pow(1000, c_api.PM_TIME_SEC - d.units.scaleTime)
        scales.append(s)
    numeric = (c_api.PM_TYPE_32, c_api.PM_TYPE_U32, c_api.PM_TYPE_64, c_api.PM_TYPE_U64,
               c_api.PM_TYPE_FLOAT, c_api.PM_TYPE_DOUBLE)
    fin = to_real(*finish)
    prev = None
    arr = (pmapi.pmID * len(pmids))(*pmids)
    for _ in range(samples):
        try:
            r = ctx.pmFetchHighRes(arr)
        except pmapi.pmErr as e:
            if e.args[0] == c_api.PM_ERR_EOL:
                break
            raise
        rc = r.contents
        t = (rc.timestamp.tv_sec, rc.timestamp.tv_nsec)
        if to_real(*t) > fin:
            break
        cur = []
        parts = []
        for j, (name, d) in enumerate(zip(names, descs)):
            vals = {}
            order = []
            n = rc.get_numval(j)
            for i in range(max(n, 0)):
                vl = rc.get_vlist(j, i)
                fmt = rc.get_valfmt(j)
                inst = vl.inst
                rate = not req.get("raw") and d.sem == c_api.PM_SEM_COUNTER and d.type in numeric
                if d.type in numeric:
                    x = pmapi.pmContext.pmExtractValue(fmt, vl, d.type, c_api.PM_TYPE_DOUBLE).dref(c_api.PM_TYPE_DOUBLE)
                    rawv = pmapi.pmContext.pmExtractValue(fmt, vl, d.type, d.type).dref(d.type)
                elif d.type == c_api.PM_TYPE_STRING:
                    x = None
                    rawv = pmapi.pmContext.pmExtractValue(fmt, vl, d.type, d.type).dref(d.type)
                else:
                    x = None
                    rawv = None
                vals[inst] = x
                order.append(inst)
                key = "" if inst == -1 else instnames[j].get(inst, str(inst))
                if rate:
                    text = "null"
                    if prev is not None and inst in prev["vals"][j]:
                        delta = scales[j] * (to_real(*t) - to_real(*prev["t"]))
                        v = x - prev["vals"][j][inst]
                        if v < 0 and wrap:
                            if d.type in (c_api.PM_TYPE_32, c_api.PM_TYPE_U32):
                                v += 4294967296.0
                            elif d.type in (c_api.PM_TYPE_64, c_api.PM_TYPE_U64):
                                v += 18446744073709551616.0
                        v = v / delta if delta != 0 else (math.inf if v > 0 else math.nan)
                        text = "null" if v < 0 else num(v)
                elif rawv is None:
                    text = "null"
                elif isinstance(rawv, str):
                    text = json.dumps(rawv)
                else:
                    text = num(rawv)
                parts.append((j, "%s:%s" % (json.dumps(key), text)))
            cur.append(vals)
        body = []
        for j, name in enumerate(names):
            mine = [p for k, p in parts if k == j]
            # a singular metric always has its "" entry, null when nothing was returned
            if not mine and descs[j].indom == c_api.PM_INDOM_NULL:
                mine = ['"":null']
            body.append("%s:{%s}" % (json.dumps(name), ",".join(mine)))
        out.append("{\"kind\":\"sample\",\"time\":\"%s\",\"values\":{%s}}" % (iso(*t), ",".join(body)))
        prev = {"t": t, "vals": cur}
    sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()
    # libpcp 6.0.3 may crash freeing interpolation state in pmDestroyContext: skip it.
    os._exit(0)


main()
