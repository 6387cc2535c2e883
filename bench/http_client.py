"""The HTTP load of the bench, in its own process: `python -m bench.http_client SPEC.json`.

One thread and `selectors` drive every keep-alive connection (a parse of the status line
and Content-Length, no http.client), so the client spends little CPU per request and no
client thread waits on another for the GIL; what it does spend is measured and reported.
Before the clock starts each connection is placed: its first request (`/healthz`) is
answered by some gunicorn worker, and a connection on a worker that already has its share
is closed and opened again until the connections are spread evenly over the workers
(which worker holds a connection is read from /proc: the server's socket of the pair and
the worker process that has it open). Once spread, every connection is asked again just
before the load, since gunicorn closes a keep-alive connection left idle.

The spec (JSON): {"port", "seconds", "expect" (status), "workers" [pids], "conns":
[{"requests": [[method, path, body or null, {headers}], ...], "start": int, "cycle":
bool}]}. Each connection sends its requests in order from `start` (cycling if `cycle`),
one at a time, until the time is up. Prints one JSON document: requests answered per
connection, latencies' percentiles, statuses other than `expect`, the client's CPU
seconds and the spread.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import socket
import sys
import time
from collections import Counter
from typing import Any

HOST = "127.0.0.1"


def encode(method: str, path: str, body: str | None, headers: dict[str, str]) -> bytes:
    data = b"" if body is None else body.encode("utf-8")
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}", "Connection: keep-alive"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body is not None:
        lines.append(f"Content-Length: {len(data)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + data


def response_end(buf: bytes | bytearray) -> tuple[int, int, bool] | None:
    """(status, total length, server closes) of the response at the start of `buf`, or None
    until its head and body are all there."""
    head_end = buf.find(b"\r\n\r\n")
    if head_end < 0:
        return None
    head = bytes(buf[:head_end]).decode("latin-1").split("\r\n")
    status = int(head[0].split(" ", 2)[1])
    length, closes = 0, False
    for line in head[1:]:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value.strip())
        elif name == "connection" and value.strip().lower() == "close":
            closes = True
        elif name == "transfer-encoding":
            raise ValueError("chunked responses are not expected here")
    total = head_end + 4 + length
    return (status, total, closes) if len(buf) >= total else None


def exchange(sock: socket.socket, request: bytes) -> int:
    """One blocking request on `sock`: its status (placing a connection)."""
    sock.sendall(request)
    buf = bytearray()
    while True:
        got = response_end(buf)
        if got is not None:
            return got[0]
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        buf += chunk


def open_conn(port: int) -> socket.socket:
    sock = socket.create_connection((HOST, port), timeout=30)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


# -- which worker holds a connection (/proc) -------------------------------------------------
def _server_inodes(port: int) -> dict[int, int]:
    """Client port -> inode of the server's end of that loopback connection."""
    out = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table, encoding="ascii") as fh:
                next(fh)
                for line in fh:
                    f = line.split()
                    local, remote, inode = f[1], f[2], int(f[9])
                    if int(local.rsplit(":", 1)[1], 16) == port and inode:
                        out[int(remote.rsplit(":", 1)[1], 16)] = inode
        except OSError:
            continue
    return out


def _socket_inodes(pid: int) -> set[int]:
    inodes: set[int] = set()
    fd_dir = f"/proc/{pid}/fd"
    try:
        names = os.listdir(fd_dir)
    except OSError:
        return inodes
    for name in names:
        try:
            target = os.readlink(f"{fd_dir}/{name}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


def owners(socks: list[socket.socket], port: int, workers: list[int]) -> list[int | None]:
    """The worker pid holding each connection (None: not found)."""
    inodes = _server_inodes(port)
    held = {pid: _socket_inodes(pid) for pid in workers}
    out: list[int | None] = []
    for sock in socks:
        inode = inodes.get(sock.getsockname()[1])
        out.append(next((pid for pid, s in held.items() if inode in s), None))
    return out


def place(port: int, n: int, workers: list[int], tries: int = 400
          ) -> tuple[list[socket.socket], Counter[int | None], int]:
    """`n` connections, each answered once, spread evenly over `workers` if possible, and
    each asked once more just before they are returned: gunicorn closes a keep-alive
    connection idle for 2 s (its default), and spreading 16 connections over 4 workers of a
    loaded machine took longer than that, so the first ones placed were closed and missing
    from the load ("closed by server")."""
    probe = encode("GET", "/healthz", None, {})
    socks: list[socket.socket] = []

    def reopen(i: int) -> None:
        socks[i].close()
        socks[i] = open_conn(port)
        exchange(socks[i], probe)

    def still_open(i: int) -> bool:
        try:
            exchange(socks[i], probe)
            return True
        except OSError:  # closed as idle: a new connection, maybe on another worker
            reopen(i)
            return False

    for _ in range(n):
        socks.append(open_conn(port))
        exchange(socks[-1], probe)
    share = -(-n // max(1, len(workers)))
    tried = 0
    held = owners(socks, port, workers)
    for tried in range(tries):  # noqa: B007 (reported)
        count = Counter(held)
        crowded = [i for i, pid in enumerate(held)
                   if len(workers) > 1 and (pid is None or count[pid] > share)]
        if crowded:
            reopen(crowded[0])
        elif all([still_open(i) for i in range(n)]) or len(workers) <= 1:
            break
        held = owners(socks, port, workers)
    return socks, Counter(held), tried


# -- the timed load ----------------------------------------------------------------------------
class Conn:
    def __init__(self, sock: socket.socket, requests: list[bytes], start: int,
                 cycle: bool) -> None:
        self.sock = sock
        self.requests = requests
        self.next = start
        self.cycle = cycle
        self.buf = bytearray()
        self.sent_at = 0.0
        self.done = 0
        self.exhausted = False

    def request(self) -> bytes | None:
        if self.next >= len(self.requests):
            if not self.cycle:
                self.exhausted = True
                return None
            self.next = 0
        req = self.requests[self.next]
        self.next += 1
        return req


class Load:
    """The timed part: every connection keeps one request in flight until the time is up."""

    def __init__(self, conns: list[Conn], seconds: float, expect: int) -> None:
        self.conns = conns
        self.expect = expect
        self.sel = selectors.DefaultSelector()
        self.latencies: list[float] = []
        self.errors: Counter[str] = Counter()
        self.begin = time.perf_counter()
        self.end = self.begin + seconds

    def send(self, c: Conn) -> bool:
        req = c.request()
        if req is None:
            return False
        c.sent_at = time.perf_counter()
        c.sock.sendall(req)
        return True

    def run(self) -> float:
        """Seconds from the first request sent to the last answer."""
        for c in self.conns:
            c.sock.setblocking(False)
            if self.send(c):
                self.sel.register(c.sock, selectors.EVENT_READ, c)
        while self.sel.get_map():
            for key, _ in self.sel.select(timeout=1.0):
                self.readable(key.data)
            if time.perf_counter() > self.end + 60:
                self.errors["no answer within 60 s"] += len(self.sel.get_map())
                break
        return time.perf_counter() - self.begin

    def readable(self, c: Conn) -> None:
        try:
            chunk = c.sock.recv(262144)
        except BlockingIOError:
            return
        if not chunk:
            self.errors["closed by server"] += 1
            self.sel.unregister(c.sock)
            return
        c.buf += chunk
        got = response_end(c.buf)
        if got is None:
            return
        status, total, closes = got
        now = time.perf_counter()
        self.latencies.append(now - c.sent_at)
        c.done += 1
        if status != self.expect:
            self.errors[str(status)] += 1
        del c.buf[:total]
        if closes or now >= self.end or not self.send(c):
            self.sel.unregister(c.sock)

    def percentile(self, q: float) -> float:
        lat = sorted(self.latencies)
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1e3 if lat else 0.0


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def load(spec: dict[str, Any]) -> dict[str, Any]:
    placing = time.perf_counter()
    socks, spread, tries = place(spec["port"], len(spec["conns"]), spec.get("workers") or [])
    placing = time.perf_counter() - placing
    conns = [Conn(sock, [encode(*r) for r in c["requests"]], c.get("start", 0),
                  c.get("cycle", False)) for sock, c in zip(socks, spec["conns"], strict=True)]
    timed = Load(conns, spec["seconds"], spec["expect"])
    cpu = cpu_seconds()
    elapsed = timed.run()
    cpu = cpu_seconds() - cpu
    for c in conns:
        c.sock.close()
    answered = len(timed.latencies)
    return {"done": [c.done for c in conns], "answered": answered, "elapsed": elapsed,
            "rps": answered / elapsed, "p50_ms": timed.percentile(0.5),
            "p99_ms": timed.percentile(0.99), "errors": dict(timed.errors),
            "cpu_seconds": cpu, "exhausted": sum(c.exhausted for c in conns),
            "spread": sorted(v for k, v in spread.items() if k is not None),
            "unplaced": spread.get(None, 0), "placing_seconds": placing, "reconnects": tries}


def main(path: str) -> None:
    with open(path, encoding="utf-8") as fh:
        spec = json.load(fh)
    sys.stdout.write(json.dumps(load(spec)) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
