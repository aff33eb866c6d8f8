#!/usr/bin/env python3
"""A webhook receiver for perfgate's end-to-end tests (python3 stdlib only).

Verifies Standard Webhooks signatures (webhook-id, webhook-timestamp, webhook-signature) and
answers each POST by a script of responses, one per request, then 200 for the rest:

  200            accept: the delivery is recorded (one JSON line: id, timestamp, body)
  500, 503, ...  answer that status
  429:N          answer 429 with "Retry-After: N"
  400:TEXT       answer 400 with TEXT as the body (Slack answers "invalid_payload")
  slow:N         wait N seconds, then answer 200 without recording (the client gave up)
  reset          close the connection with a TCP reset, no answer
  redirect:URL   answer 307 with "Location: URL"
  echo:N         answer 400 with the request's path echoed back in the N-th way a receiver might
                 (decoded, re-encoded, escaped as JSON or HTML...: see ECHOES)

The script comes from --script "500,500,200" or later from POST /_control {"script": [...]}.
Every request is logged to --requests (id and what was answered), accepted ones to --record.
The bound port is written to --port-file (atomically) and printed on stdout.
"""
import argparse
import base64
import hashlib
import hmac
import json
import os
import re
import socket
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

TOLERANCE_S = 5 * 60


def _first_value(query):
    pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
    return pairs[0][1] if pairs else ""


def _segment(path, index):
    parts = path.split("?", 1)[0].split("/")
    return parts[index] if index < len(parts) else ""


# How a receiver may echo the URL it was called with (path: the raw request target, host: the
# Host header): the error bodies that tests/e2e/notify_echo.sh makes perfgate print.
ECHOES = [
    lambda path, host: f"no route for {path}",
    lambda path, host: f"no route for {urllib.parse.unquote(path)}",
    lambda path, host: f"no route for {urllib.parse.unquote(path.split('?', 1)[0])}",
    lambda path, host: f"no such hook: {urllib.parse.unquote(_segment(path, 2))}",
    lambda path, host: f"no such hook: {_segment(path, 2)}",
    lambda path, host: f"unknown key {urllib.parse.unquote(_segment(path, 3))}",
    lambda path, host: f"bad query {path.split('?', 1)[1] if '?' in path else ''}",
    lambda path, host: f"bad query {urllib.parse.unquote_plus(path.split('?', 1)[1] if '?' in path else '')}",
    lambda path, host: f"bad signature {_first_value(path.split('?', 1)[1] if '?' in path else '')}",
    lambda path, host: f"bad signature {path.split('?', 1)[1].split('&')[0].split('=', 1)[1] if '?' in path else ''}",
    lambda path, host: "bad k: " + urllib.parse.parse_qs(path.split("?", 1)[1] if "?" in path else "").get("k", [""])[0],
    # PHP's json_encode escapes "/" as "\/".
    lambda path, host: json.dumps({"error": "no route " + urllib.parse.unquote(path)}).replace("/", "\\/"),
    lambda path, host: json.dumps({"error": "no route " + path}).replace("/", "\\/"),
    lambda path, host: "no route " + re.sub("%[0-9A-Fa-f]{2}", lambda m: m.group(0).lower(), path),
    lambda path, host: "no route " + urllib.parse.quote(urllib.parse.unquote(path), safe=""),
    lambda path, host: "no such hook: " + "".join(f"%{b:02x}" for b in urllib.parse.unquote(_segment(path, 2)).encode()),
    lambda path, host: f"no route for http://{host}{path}",
    lambda path, host: "no route " + urllib.parse.unquote(path).replace("/", "&#x2F;"),
]


def verify(secret, headers, body):
    """Returns None when the signature is valid, else why not."""
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not (msg_id and timestamp and signatures):
        return "missing webhook headers"
    try:
        if abs(time.time() - int(timestamp)) > TOLERANCE_S:
            return "timestamp outside tolerance"
    except ValueError:
        return "bad timestamp"
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{msg_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    for sig in signatures.split(" "):
        version, _, value = sig.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return None
    return "no matching v1 signature"


class State:
    def __init__(self, args):
        self.lock = threading.Lock()
        self.script = [s for s in args.script.split(",") if s] if args.script else []
        self.secret = args.secret
        self.record = args.record
        self.requests = args.requests

    def next_action(self):
        with self.lock:
            return self.script.pop(0) if self.script else "200"

    def append(self, path, entry):
        if not path:
            return
        with self.lock, open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")
            f.flush()
            os.fsync(f.fileno())


def make_handler(state):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):  # quiet: the tests read the files instead
            pass

        def answer(self, status, body=b"", headers=()):
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            if self.path == "/_control":
                state.script = list(json.loads(body)["script"])
                return self.answer(200, b"ok")
            msg_id = self.headers.get("webhook-id", "")
            action = state.next_action()
            state.append(state.requests, {"id": msg_id, "path": self.path, "action": action})
            if action == "reset":
                # SO_LINGER with a zero timeout turns close() into a TCP RST.
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True
                return
            if action.startswith("echo:"):
                echo = ECHOES[int(action.split(":", 1)[1])]
                return self.answer(400, echo(self.path, self.headers.get("Host", "")).encode())
            if action.startswith("redirect:"):
                return self.answer(307, b"", [("Location", action.split(":", 1)[1])])
            if action.startswith("slow:"):
                time.sleep(float(action.split(":", 1)[1]))
                return self.answer(200, b"too late")
            if action.startswith("429"):
                retry_after = action.split(":", 1)[1] if ":" in action else "1"
                return self.answer(429, b"slow down", [("Retry-After", retry_after)])
            if action.startswith("400"):
                text = action.split(":", 1)[1] if ":" in action else "bad request"
                return self.answer(400, text.encode())
            if action != "200":
                return self.answer(int(action), b"server error")
            if state.secret:
                problem = verify(state.secret, self.headers, body)
                if problem:
                    state.append(state.requests, {"id": msg_id, "action": "401", "why": problem})
                    return self.answer(401, problem.encode())
            state.append(state.record, {"id": msg_id, "timestamp": self.headers.get("webhook-timestamp"),
                                        "path": self.path, "body": body.decode("utf-8")})
            return self.answer(200, b"ok")

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0, help="0: any free port")
    parser.add_argument("--port-file", help="where to write the bound port")
    parser.add_argument("--secret", help="whsec_ secret; without it signatures are not checked")
    parser.add_argument("--script", default="", help="comma-separated responses, e.g. 500,500,200")
    parser.add_argument("--record", help="JSON lines of accepted deliveries")
    parser.add_argument("--requests", help="JSON lines of every request and its answer")
    args = parser.parse_args()

    ThreadingHTTPServer.allow_reuse_address = True
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(State(args)))
    port = server.server_address[1]
    if args.port_file:
        tmp = args.port_file + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(f"{port}\n")
        os.replace(tmp, args.port_file)
    print(port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
