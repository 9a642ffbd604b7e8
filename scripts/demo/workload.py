"""A workload that makes a demo or fixture archive's numbers move: CPU bursts, disk writes
and reads, loopback network transfers and memory growth, in phases, with child processes
that come and go (so hotproc's instance domain changes).

Run it through a link named `pmdash-wl` to the python3 binary, so every process it starts
has that command name and a hotproc predicate `fname == "pmdash-wl"` selects exactly these
processes and nothing else on the machine.

usage: pmdash-wl workload.py SECONDS SCRATCH_DIR
"""
import multiprocessing as mp
import os
import random
import socket
import sys
import time

CHUNK = 1 << 20


def burn(seconds):
    end = time.time() + seconds
    x = 0
    while time.time() < end:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
    return x


def disk(seconds, scratch, mbytes):
    path = os.path.join(scratch, f"wl-{os.getpid()}.dat")
    block = os.urandom(CHUNK)
    end = time.time() + seconds
    try:
        while time.time() < end:
            with open(path, "wb") as f:
                for _ in range(mbytes):
                    f.write(block)
                f.flush()
                os.fsync(f.fileno())
            fd = os.open(path, os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)  # make the read hit the disk
                while os.read(fd, CHUNK):
                    pass
            finally:
                os.close(fd)
            time.sleep(0.5)
    finally:
        if os.path.exists(path):
            os.unlink(path)


def net(seconds, mbytes_per_sec):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]

    def sink():
        conn, _ = server.accept()
        while conn.recv(CHUNK):
            pass

    child = mp.Process(target=sink)
    child.start()
    client = socket.create_connection(("127.0.0.1", port))
    block = b"x" * CHUNK
    end = time.time() + seconds
    while time.time() < end:
        t0 = time.time()
        for _ in range(mbytes_per_sec):
            client.sendall(block)
        time.sleep(max(0.0, 1.0 - (time.time() - t0)))
    client.close()
    child.join()
    server.close()


def memory(seconds, mbytes):
    held = []
    step = max(1, mbytes // 10)
    end = time.time() + seconds
    while time.time() < end and len(held) * step < mbytes:
        held.append(bytearray(os.urandom(16)) * (step * CHUNK // 16))
        time.sleep(seconds / 12)
    time.sleep(max(0.0, end - time.time()))


def main():
    total = float(sys.argv[1])
    scratch = sys.argv[2]
    rng = random.Random(44321)
    start = time.time()
    phases = ["cpu", "disk", "net", "mixed", "memory", "idle"]
    i = 0
    while time.time() - start < total:
        phase = phases[i % len(phases)]
        length = min(rng.uniform(25, 55), total - (time.time() - start))
        if length <= 1:
            break
        jobs = []
        if phase in ("cpu", "mixed"):
            for _ in range(rng.choice([1, 2, 3])):
                jobs.append(mp.Process(target=burn, args=(length * rng.uniform(0.5, 1.0),)))
        if phase in ("disk", "mixed"):
            jobs.append(mp.Process(target=disk, args=(length, scratch, rng.choice([32, 64, 128]))))
        if phase in ("net", "mixed"):
            jobs.append(mp.Process(target=net, args=(length, rng.choice([5, 20, 50]))))
        if phase == "memory":
            jobs.append(mp.Process(target=memory, args=(length, rng.choice([256, 512]))))
        for j in jobs:
            j.start()
            time.sleep(rng.uniform(0, 3))
        for j in jobs:
            j.join()
        if phase == "idle":
            time.sleep(length)
        i += 1


if __name__ == "__main__":
    mp.set_start_method("fork")
    main()
