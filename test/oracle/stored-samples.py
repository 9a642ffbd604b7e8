#!/usr/bin/python3
"""Oracle for src/pcp-core/fleet: the samples an archive holds for one metric, as libpcp reads them.

Usage: stored-samples.py ARCHIVE METRIC
Reads every record with pmFetchHighResArchive (no interpolation: what pmseries --load stores)
and prints a JSON list, one entry per record holding METRIC:
  {"sec": S, "nsec": N, "values": {"INSTANCE NAME": VALUE, ...}}
with "" as the name for a metric without instances. VALUE is the number libpcp extracted
with the descriptor's type (float and double as Python floats, integers as integers); a
string metric's value is its text. Also prints the descriptor: {"type": T, "sem": S}.
"""
import json
import sys

from pcp import pmapi
import cpmapi as c_api

archive, metric = sys.argv[1], sys.argv[2]
ctx = pmapi.pmContext(c_api.PM_CONTEXT_ARCHIVE, archive)
pmid = ctx.pmLookupName(metric)[0]
desc = ctx.pmLookupDescs([pmid])[0]
names = {}
if desc.indom != c_api.PM_INDOM_NULL:
    ids, insts = ctx.pmGetInDomArchive(desc)
    names = dict(zip(ids, insts))
samples = []
while True:
    try:
        result = ctx.pmFetchHighResArchive()
    except pmapi.pmErr as e:
        if e.args[0] != c_api.PM_ERR_EOL:
            raise
        break
    r = result.contents
    for i in range(r.numpmid):
        if r.get_pmid(i) != pmid or r.get_numval(i) <= 0:
            continue
        values = {}
        for j in range(r.get_numval(i)):
            atom = ctx.pmExtractValue(r.get_valfmt(i), r.get_vlist(i, j), desc.type, desc.type)
            v = atom.dref(desc.type)
            inst = r.get_inst(i, j)
            key = names.get(inst, str(inst)) if desc.indom != c_api.PM_INDOM_NULL else ""
            values[key] = v
        samples.append({"sec": r.timestamp.tv_sec, "nsec": r.timestamp.tv_nsec, "values": values})
    ctx.pmFreeHighResResult(result)
print(json.dumps({"type": desc.type, "sem": desc.sem, "samples": samples}))
