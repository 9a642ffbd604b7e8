#!/usr/bin/python3
"""Archives of many hosts for the fleet benchmark, written by PCP's own LOGIMPORT (pmi).

Usage: fleet-archives.py OUTDIR HOSTS HOURS INTERVAL_SEC [FIRST]
Writes OUTDIR/bench-host-NNN (one archive per host, hostname bench-host-NNN) covering HOURS
hours ending at the last whole hour before now (UTC), one record every INTERVAL_SEC, with a
mix of what pmlogger records on a Linux host: kernel.all.load (3 instances),
kernel.all.cpu.{user,sys,idle} (counters, ms), disk.all.{read,write} (counters),
network.interface.{in,out}.bytes (counters, 2 interfaces), mem.util.{free,used} (Kbyte),
hinv.ncpu and mem.physmem (discrete). Values are deterministic per host (seeded) and
plausible (diurnal load, counters that only grow). Prints the archive paths, one a line.
"""
import math
import os
import random
import sys
import time

from pcp import pmi
import cpmapi as c_api

outdir, hosts, hours, interval = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
first = int(sys.argv[5]) if len(sys.argv) > 5 else 0
end = int(time.time()) // 3600 * 3600
start = end - int(hours * 3600)
steps = int(hours * 3600) // interval

U64, U32, FLOAT = c_api.PM_TYPE_U64, c_api.PM_TYPE_U32, c_api.PM_TYPE_FLOAT
COUNTER, INSTANT, DISCRETE = c_api.PM_SEM_COUNTER, c_api.PM_SEM_INSTANT, c_api.PM_SEM_DISCRETE

os.makedirs(outdir, exist_ok=True)
for n in range(first, first + hosts):
    host = "bench-host-%03d" % n
    path = os.path.join(outdir, host)
    rng = random.Random(n)
    log = pmi.pmiLogImport(path)
    log.pmiSetHostname(host)
    log.pmiSetTimezone("UTC")
    none = log.pmiUnits(0, 0, 0, 0, 0, 0)
    count = log.pmiUnits(0, 0, 1, 0, 0, c_api.PM_COUNT_ONE)
    msec = log.pmiUnits(0, 1, 0, 0, c_api.PM_TIME_MSEC, 0)
    kbyte = log.pmiUnits(1, 0, 0, c_api.PM_SPACE_KBYTE, 0, 0)
    byte = log.pmiUnits(1, 0, 0, c_api.PM_SPACE_BYTE, 0, 0)
    load_indom = log.pmiInDom(60, 2)
    net_indom = log.pmiInDom(60, 3)
    log.pmiAddMetric("kernel.all.load", log.pmiID(60, 2, 0), FLOAT, load_indom, INSTANT, none)
    for i, name in ((1, "1 minute"), (5, "5 minute"), (15, "15 minute")):
        log.pmiAddInstance(load_indom, name, i)
    log.pmiAddMetric("kernel.all.cpu.user", log.pmiID(60, 0, 20), U64, c_api.PM_INDOM_NULL, COUNTER, msec)
    log.pmiAddMetric("kernel.all.cpu.sys", log.pmiID(60, 0, 22), U64, c_api.PM_INDOM_NULL, COUNTER, msec)
    log.pmiAddMetric("kernel.all.cpu.idle", log.pmiID(60, 0, 23), U64, c_api.PM_INDOM_NULL, COUNTER, msec)
    log.pmiAddMetric("disk.all.read", log.pmiID(60, 0, 24), U64, c_api.PM_INDOM_NULL, COUNTER, count)
    log.pmiAddMetric("disk.all.write", log.pmiID(60, 0, 25), U64, c_api.PM_INDOM_NULL, COUNTER, count)
    log.pmiAddMetric("network.interface.in.bytes", log.pmiID(60, 3, 0), U64, net_indom, COUNTER, byte)
    log.pmiAddMetric("network.interface.out.bytes", log.pmiID(60, 3, 8), U64, net_indom, COUNTER, byte)
    for i, name in ((0, "eth0"), (1, "lo")):
        log.pmiAddInstance(net_indom, name, i)
    log.pmiAddMetric("mem.util.free", log.pmiID(60, 1, 2), U64, c_api.PM_INDOM_NULL, INSTANT, kbyte)
    log.pmiAddMetric("mem.util.used", log.pmiID(60, 1, 1), U64, c_api.PM_INDOM_NULL, INSTANT, kbyte)
    log.pmiAddMetric("hinv.ncpu", log.pmiID(60, 0, 32), U32, c_api.PM_INDOM_NULL, DISCRETE, none)
    log.pmiAddMetric("mem.physmem", log.pmiID(60, 1, 0), U64, c_api.PM_INDOM_NULL, DISCRETE, kbyte)
    ncpu = rng.choice((2, 4, 8, 16, 32))
    physmem = ncpu * 4 * 1024 * 1024
    handles = {}

    def put(name, inst, value):
        key = (name, inst)
        if key not in handles:
            handles[key] = log.pmiGetHandle(name, inst)
        log.pmiPutValueHandle(handles[key], value)

    busy = rng.uniform(0.05, 0.6)
    phase = rng.uniform(0, 2 * math.pi)
    user = sys_ = idle = reads = writes = 0
    net = {"eth0": [0, 0], "lo": [0, 0]}
    l1 = l5 = l15 = busy * ncpu
    for k in range(steps + 1):
        t = start + k * interval
        day = 0.5 + 0.5 * math.sin(2 * math.pi * (t % 86400) / 86400 + phase)
        util = min(0.98, max(0.01, busy * (0.4 + day) + rng.gauss(0, 0.03)))
        cpu_ms = ncpu * interval * 1000
        user += int(cpu_ms * util * 0.7)
        sys_ += int(cpu_ms * util * 0.3)
        idle += int(cpu_ms * (1 - util))
        reads += rng.randint(0, int(200 * interval * util) + 1)
        writes += rng.randint(0, int(300 * interval * util) + 1)
        net["eth0"][0] += rng.randint(0, int(5e6 * interval * util) + 1)
        net["eth0"][1] += rng.randint(0, int(2e6 * interval * util) + 1)
        net["lo"][0] += rng.randint(0, 10000 * interval)
        net["lo"][1] = net["lo"][0]
        run = ncpu * util + rng.gauss(0, 0.2)
        l1 = l1 + (run - l1) * (1 - math.exp(-interval / 60.0))
        l5 = l5 + (run - l5) * (1 - math.exp(-interval / 300.0))
        l15 = l15 + (run - l15) * (1 - math.exp(-interval / 900.0))
        used = int(physmem * min(0.95, 0.3 + 0.5 * util))
        put("kernel.all.load", "1 minute", "%.2f" % max(0.0, l1))
        put("kernel.all.load", "5 minute", "%.2f" % max(0.0, l5))
        put("kernel.all.load", "15 minute", "%.2f" % max(0.0, l15))
        put("kernel.all.cpu.user", None, str(user))
        put("kernel.all.cpu.sys", None, str(sys_))
        put("kernel.all.cpu.idle", None, str(idle))
        put("disk.all.read", None, str(reads))
        put("disk.all.write", None, str(writes))
        for iface, (rx, tx) in net.items():
            put("network.interface.in.bytes", iface, str(rx))
            put("network.interface.out.bytes", iface, str(tx))
        put("mem.util.used", None, str(used))
        put("mem.util.free", None, str(physmem - used))
        put("hinv.ncpu", None, str(ncpu))
        put("mem.physmem", None, str(physmem))
        log.pmiWrite(t, 0)
    log.pmiEnd()
    del log
    print(path)
