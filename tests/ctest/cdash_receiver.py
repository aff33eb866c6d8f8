#!/usr/bin/env python3
"""A local stand-in for CDash's submit.php, enough for ctest_submit over HTTP: every file comes
as a PUT (or a POST) to submit.php with ?project=...&FileName=...&MD5=..., is stored under
--store by its FileName, and is answered the way CDash answers (XML with <status>OK</status>
and the MD5 of what arrived). A body whose MD5 differs from the query's is answered ERROR.
Writes its port to --port-file once listening (port 0 = any free port on 127.0.0.1)."""
import argparse
import hashlib
import http.server
import os
import urllib.parse


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--store", required=True)
    args = parser.parse_args()
    os.makedirs(args.store, exist_ok=True)
    log = open(os.path.join(args.store, "requests.log"), "a", buffering=1)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # answers curl's Expect: 100-continue

        def answer(self, code, status, message, md5=""):
            body = (f'<cdash version="3.0">\n  <status>{status}</status>\n  <message>{message}</message>\n'
                    f"  <md5>{md5}</md5>\n</cdash>\n").encode()
            self.send_response(code)
            self.send_header("Content-Type", "text/xml")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def read_body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                data = b""
                while True:
                    size = int(self.rfile.readline().strip(), 16)
                    if size == 0:
                        self.rfile.readline()
                        return data
                    data += self.rfile.read(size)
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length", 0)))

        def submit(self):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            data = self.read_body()
            log.write(f"{self.command} {url.path} {sorted(query)}\n")
            if not url.path.endswith("/submit.php") or "project" not in query:
                return self.answer(404, "ERROR", "not submit.php?project=NAME")
            name = query.get("FileName", [""])[0]
            if not name:
                return self.answer(400, "ERROR", "no FileName")
            md5 = hashlib.md5(data).hexdigest()
            if "MD5" in query and query["MD5"][0] and query["MD5"][0] != md5:
                return self.answer(200, "ERROR", "md5 mismatch", md5)
            with open(os.path.join(args.store, os.path.basename(name)), "wb") as out:
                out.write(data)
            self.answer(200, "OK", "", md5)

        do_PUT = submit
        do_POST = submit

        def log_message(self, *_):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(args.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
