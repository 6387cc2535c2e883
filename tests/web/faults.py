"""A loopback proxy between the browser and the test server that misbehaves as bad Wi-Fi
and the proxies in front of a server do: it passes a request, hangs it, answers 502 for
the server, slows it down, or forwards it and then cuts the answer off half-way.

The browser talks to the proxy's address as it would to the server's; `rule(method, path)`
decides each request's fate (None: pass it). The server behind sees only what the proxy
forwarded, so a hung or 502'd request never reached it, and a cut-off answer did.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Fault:
    """What the proxy does with one request: "hang" (no answer until released), "502"
    (the proxy's own Bad Gateway, the server never asked), "cut" (forwarded, then the
    answer stops half-way and the connection closes), "delay" (forwarded after `seconds`)."""

    kind: str
    seconds: float = 0.0


HANG, BAD_GATEWAY, CUT = Fault("hang"), Fault("502"), Fault("cut")


def delay(seconds: float) -> Fault:
    return Fault("delay", seconds)


#: headers that belong to one hop, not passed on
HOP = {"connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade", "te"}


class FaultProxy:
    """One proxy on 127.0.0.1 for one test; `rule` may be changed at any time, `seen`
    lists (method, path, fault kind) of every request in order."""

    def __init__(self, upstream: str) -> None:
        up = urlsplit(upstream)
        self.host, self.port = up.hostname or "127.0.0.1", up.port or 80
        self.rule: Callable[[str, str], Fault | None] = lambda method, path: None
        self.seen: list[tuple[str, str, str]] = []
        self.released = threading.Event()
        self._lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *args: object) -> None:
                pass

            def _any(self) -> None:
                proxy.handle(self)

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = _any

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def release(self) -> None:
        """Every hung request gets its connection closed (no answer), and later hangs
        are no longer held."""
        self.released.set()

    def count(self, kind: str) -> int:
        with self._lock:
            return sum(1 for s in self.seen if s[2] == kind)

    def handle(self, req: BaseHTTPRequestHandler) -> None:
        length = int(req.headers.get("Content-Length") or 0)
        body = req.rfile.read(length) if length else b""
        fault = self.rule(req.command, req.path)
        with self._lock:
            self.seen.append((req.command, req.path, fault.kind if fault else "pass"))
        if fault is not None and fault.kind == "hang":
            self.released.wait(120)
            req.close_connection = True
            return
        if fault is not None and fault.kind == "502":
            page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
            req.send_response(502, "Bad Gateway")
            req.send_header("Content-Type", "text/html")
            req.send_header("Content-Length", str(len(page)))
            req.end_headers()
            req.wfile.write(page)
            return
        if fault is not None and fault.kind == "delay":
            time.sleep(fault.seconds)
        self._forward(req, body, cut=fault is not None and fault.kind == "cut")

    def _forward(self, req: BaseHTTPRequestHandler, body: bytes, cut: bool) -> None:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
        headers = {k: v for k, v in req.headers.items() if k.lower() not in HOP}
        headers["Host"] = f"{self.host}:{self.port}"
        conn.request(req.command, req.path, body=body or None, headers=headers)
        res = conn.getresponse()
        req.send_response(res.status, res.reason)
        streaming = (res.getheader("Content-Type") or "").startswith("text/event-stream")
        if streaming:  # the live updates: passed on as they come, until either side closes
            for k, v in res.getheaders():
                if k.lower() not in HOP and k.lower() != "content-length":
                    req.send_header(k, v)
            req.end_headers()
            try:
                while chunk := res.read1(65536):
                    req.wfile.write(chunk)
                    req.wfile.flush()
            except (OSError, ValueError, http.client.HTTPException):
                pass  # either side closed the stream
            conn.close()
            return
        data = res.read()
        conn.close()
        for k, v in res.getheaders():
            if k.lower() not in HOP and k.lower() != "content-length":
                req.send_header(k, v)
        req.send_header("Content-Length", str(len(data)))
        req.end_headers()
        if cut:  # the answer breaks off: half of it, then the connection is gone
            req.wfile.write(data[: len(data) // 2])
            req.wfile.flush()
            req.connection.shutdown(socket.SHUT_RDWR)
            req.close_connection = True
            return
        req.wfile.write(data)

    def close(self) -> None:
        self.released.set()
        self.httpd.shutdown()
        self.httpd.server_close()
