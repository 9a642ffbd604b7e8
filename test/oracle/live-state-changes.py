#!/usr/bin/python3
"""Oracle for pmcd state changes on a live host context (src/pcp-core/context/live-*.ts):
what libpcp reports while a test kills PMDAs, SIGHUPs pmcd or changes its configuration.

One context stays open for the whole session, because pmcd keeps the state-change mask per
client connection (pdu-protocol.md section 5.1). python3-pcp's pmContext.pmFetch drops
pmFetch's positive return value (the mask; pmFetchGroup's fetch() passes it on), so fetches
call libpcp's pmFetch directly.

argv[1]: host specification, e.g. localhost:45000
stdin: one JSON request per line; stdout: one JSON answer per line, flushed at once.
  {"op": "fetch", "names": [...]}   pmFetch: {"flags": mask (0 when none), "sets": [{"pmid", "numval"}]}
                                    or {"error": code}
  {"op": "descs", "names": [...]}   pmLookupName + pmLookupDesc per name: {pmid, type, indom, sem}
                                    or the error code
  {"op": "text", "names": [...]}    pmLookupText(PM_TEXT_ONELINE) per name: text or error code
  {"op": "labels"}                  pmGetContextLabels: [json of each set] or error code
"""
import ctypes
import json
import sys

from pcp import pmapi
import cpmapi as c_api

LIBPCP = pmapi.LIBPCP


def fetch(ctx, names):
    pmids = ctx.pmLookupName(names)
    arr = (ctypes.c_uint * len(pmids))(*pmids)
    result = ctypes.POINTER(pmapi.pmResult)()
    LIBPCP.pmUseContext(ctx.ctx)
    sts = LIBPCP.pmFetch(len(pmids), arr, ctypes.byref(result))
    if sts < 0:
        return {"error": sts}
    res = result.contents
    sets = [{"pmid": res.get_pmid(j), "numval": res.get_numval(j)} for j in range(res.numpmid)]
    LIBPCP.pmFreeResult(result)
    return {"flags": sts, "sets": sets}


def per_name(ctx, names, one):
    out = []
    for n in names:
        try:
            out.append(one(ctx.pmLookupName([n])[0]))
        except pmapi.pmErr as e:
            out.append(e.args[0])
    return out


def desc(ctx, pmid):
    d = ctx.pmLookupDescs([pmid])[0].contents
    return {"pmid": d.pmid, "type": d.type, "indom": d.indom, "sem": d.sem}


def text(ctx, pmid):
    t = ctx.pmLookupText(pmid, c_api.PM_TEXT_ONELINE)
    return t.decode() if isinstance(t, bytes) else t


def context_labels(ctx):
    result = ctypes.POINTER(pmapi.pmLabelSet)()
    LIBPCP.pmUseContext(ctx.ctx)
    n = LIBPCP.pmGetContextLabels(ctypes.byref(result))
    if n < 0:
        return n
    return [(result[i].json or b"")[:result[i].jsonlen].decode() for i in range(n)]


def main():
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_HOST, sys.argv[1])
    for line in sys.stdin:
        if not line.strip():
            continue
        op = json.loads(line)
        kind = op["op"]
        try:
            if kind == "fetch":
                out = fetch(ctx, op["names"])
            elif kind == "descs":
                out = per_name(ctx, op["names"], lambda p: desc(ctx, p))
            elif kind == "text":
                out = per_name(ctx, op["names"], lambda p: text(ctx, p))
            elif kind == "labels":
                out = context_labels(ctx)
            else:
                raise ValueError("unknown op " + kind)
        except pmapi.pmErr as e:
            out = {"error": e.args[0]}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


main()
