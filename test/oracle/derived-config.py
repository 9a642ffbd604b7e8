#!/usr/bin/python3
"""Oracle for derived-metric configuration files: pmLoadDerivedConfig(path) with everything
libpcp prints captured, then, in a context on an archive, each requested name's PMID and
one-line and help texts.

stdin: {"path": "a:b", "archive": path, "names": [...]}
stdout: {"status": int, "stderr": str, "names": [{"pmid": int|null, "oneline": str|null,
         "help": str|null}]}"""
import json
import os
import sys
import tempfile
from ctypes import c_char_p, c_int

import cpmapi as c_api
from pcp import pmapi

LIB = pmapi.LIBPCP
LIB.pmLoadDerivedConfig.restype = c_int
LIB.pmLoadDerivedConfig.argtypes = [c_char_p]


def text(ctx, pmid, level):
    try:
        t = ctx.pmLookupText(pmid, level)
    except pmapi.pmErr:
        return None
    return t.decode("utf-8", "replace") if isinstance(t, bytes) else t


def main():
    req = json.load(sys.stdin)
    capture = tempfile.TemporaryFile()
    saved = os.dup(2)
    os.dup2(capture.fileno(), 2)
    try:
        status = LIB.pmLoadDerivedConfig(req["path"].encode())
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    capture.seek(0)
    out = {"status": status, "stderr": capture.read().decode("utf-8", "replace"), "names": []}
    ctx = pmapi.pmContext(c_api.PM_CONTEXT_ARCHIVE, req["archive"])
    for name in req["names"]:
        entry = {"pmid": None, "oneline": None, "help": None}
        try:
            pmid = ctx.pmLookupName(name)[0]
            entry["pmid"] = pmid
            entry["oneline"] = text(ctx, pmid, c_api.PM_TEXT_ONELINE)
            entry["help"] = text(ctx, pmid, c_api.PM_TEXT_HELP)
        except pmapi.pmErr:
            pass
        out["names"].append(entry)
    json.dump(out, sys.stdout)


main()
