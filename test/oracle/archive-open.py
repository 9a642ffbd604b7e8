#!/usr/bin/python3
"""Oracle: what pmNewContext(PM_CONTEXT_ARCHIVE, name) finds for each name.

Usage: archive-open.py [--cwd DIR] [--read-all] NAME...   (relative names start from DIR)
Prints one JSON list, an entry per name:
  {"name", "ok": false, "code", "text"}                       open refused
  {"name", "ok": true, "inspected": [...], "opened": [...],   open accepted
   "volumes": {"N": path}, "readError": code|null}
"opened" lists the files libpcp opened while finding the archive (index and meta, in
order: the last of each kind is the one used); "volumes" maps each volume libpcp switched
to (all of them with --read-all, which fetches every record) to the file it read.
Paths come from libpcp's own debug output (PCP_DEBUG log,compress), not from a
re-implementation of its rules.
"""
import json
import os
import re
import sys
import tempfile

from pcp import pmapi
from cpmapi import PM_CONTEXT_ARCHIVE, PM_ERR_EOL

INSPECT = re.compile(r'^__pmLogOpen: inspect file "(.*)"$')
PLAIN = re.compile(r'^__pmFopen\("(.*)", "r"\): no decompress$')
XZ = re.compile(r'^xz_open\(\.\.\., (.*), \.\.\.\): fd=\d+$')
EXTERNAL = re.compile(r'^__pmLogOpen: uncompress using: \S+ -dc (.*)$')
META_OR_INDEX = re.compile(r'\.(meta|index)(\.(xz|lzma|bz2|bz|gz|Z|z))?$')
CHANGE_VOL = re.compile(r'^__pmLogChangeVol: change to volume (\d+)$')


def probe(name, read_all):
    entry = {"name": name}
    with tempfile.TemporaryFile(mode="w+") as log:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(log.fileno(), 2)
        ctx = None
        try:
            pmapi.LIBPCP.pmSetDebug(b"log,compress")
            try:
                ctx = pmapi.pmContext(PM_CONTEXT_ARCHIVE, name.encode())
                entry["ok"] = True
                entry["readError"] = None
                while read_all:
                    try:
                        result = ctx.pmFetchArchive()
                        ctx.pmFreeResult(result)
                    except pmapi.pmErr as e:
                        if e.code != PM_ERR_EOL:
                            entry["readError"] = e.code
                        break
            except pmapi.pmErr as e:
                entry.update(ok=False, code=e.code, text=pmapi.pmErr(e.code).message())
        finally:
            pmapi.LIBPCP.pmClearDebug(b"log,compress")
            del ctx
            os.dup2(saved, 2)
            os.close(saved)
        log.seek(0)
        lines = log.read().splitlines()
    if entry["ok"]:
        inspected, opened, volumes = [], [], {}
        last_opened = None
        after_inspect = False
        for line in lines:
            m = INSPECT.match(line)
            if m:
                inspected.append(m.group(1))
                # only .meta and .index files are opened while the directory is scanned
                after_inspect = META_OR_INDEX.search(m.group(1)) is not None
                continue
            m = PLAIN.match(line) or XZ.match(line) or EXTERNAL.match(line)
            if m:
                last_opened = m.group(1)
                if after_inspect:
                    opened.append(last_opened)
                after_inspect = False
                continue
            else:
                m = CHANGE_VOL.match(line)
                if m:
                    volumes[m.group(1)] = last_opened
            # an xz open logs two lines (__pmFopen, then xz_open): both follow the inspect
            if not line.startswith('__pmFopen('):
                after_inspect = False
        entry.update(inspected=inspected, opened=opened, volumes=volumes)
    return entry


def main():
    args = sys.argv[1:]
    read_all = False
    if args[:1] == ["--cwd"]:
        os.chdir(args[1])
        args = args[2:]
    if args[:1] == ["--read-all"]:
        read_all, args = True, args[1:]
    print(json.dumps([probe(name, read_all) for name in args]))


main()
