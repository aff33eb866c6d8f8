#!/usr/bin/env python3
"""A loopback stand-in for the two comment APIs ci/pr_comment.py speaks (python3 stdlib only).

It keeps the comments of one pull request (GitHub) or merge request (GitLab) in memory and
checks every request as the REST documentation describes it, answering what the forge would:

  GitHub (docs.github.com/en/rest/issues/comments, API version 2022-11-28)
    GET   /repos/{owner}/{repo}/issues/{number}/comments?per_page=N&page=P   list, paged (Link)
    POST  /repos/{owner}/{repo}/issues/{number}/comments   {"body": ...}     201, the comment
    PATCH /repos/{owner}/{repo}/issues/comments/{id}       {"body": ...}     200, the comment
    headers: Authorization: Bearer TOKEN, Accept: application/vnd.github+json,
             X-GitHub-Api-Version: 2022-11-28, User-Agent (GitHub refuses a request without one)
  GitLab (docs.gitlab.com/api/notes, merge requests)
    GET   /api/v4/projects/{id}/merge_requests/{iid}/notes?per_page=N&page=P  list, paged
          (X-Next-Page, X-Page, X-Per-Page, X-Total, Link)
    POST  /api/v4/projects/{id}/merge_requests/{iid}/notes            {"body": ...}  201
    PUT   /api/v4/projects/{id}/merge_requests/{iid}/notes/{note_id}  {"body": ...}  200
    header: PRIVATE-TOKEN: TOKEN (or JOB-TOKEN: TOKEN with --job-token)

A request that breaks a rule is answered 400, 401, 404, 405 or 422 as the forge would, and
logged with what was wrong. Every request is one JSON line in --requests: method, path, query,
status, problem (or null), and the body for writes. The comments as they stand are written to
--state (a JSON list) after each change. --others N seeds N comments by other people first, one
of them quoting the marker line, so a client must walk the pages and match the marker only at
the start of a body. The bound port goes to --port-file (atomically).
"""
import argparse
import json
import os
import re
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MARKER = "<!-- perfgate-pr-comment -->"
GITHUB_MAX_BODY = 65536


class Forge:
    def __init__(self, args):
        self.kind = args.kind
        self.token = args.token
        self.job_token = args.job_token
        self.lock = threading.Lock()
        self.requests = args.requests
        self.state = args.state
        self.project = args.project
        self.number = args.number
        self.comments = []
        self.next_id = 1000
        for i in range(args.others):
            body = f"Looks good to me, comment {i}."
            if i == args.others // 2:  # a person quoting perfgate's comment is not perfgate's comment
                body = f"> {MARKER}\n> ## perfgate: 1 regressed\n\nWhy did this regress?"
            self.add(body, author="a-reviewer", system=(self.kind == "gitlab" and i % 7 == 3))
        self.save()

    def add(self, body, author, system=False):
        self.next_id += 1
        comment = {"id": self.next_id, "body": body}
        if self.kind == "github":
            comment["user"] = {"login": author, "type": "Bot" if author.endswith("[bot]") else "User"}
            comment["html_url"] = f"https://github.example/{self.project}/pull/{self.number}#issuecomment-{self.next_id}"
        else:
            comment["author"] = {"username": author}
            comment["system"] = system
            comment["noteable_iid"] = int(self.number)
        self.comments.append(comment)
        return comment

    def save(self):
        if not self.state:
            return
        tmp = self.state + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.comments, f)
        os.replace(tmp, self.state)

    def log(self, entry):
        if not self.requests:
            return
        with open(self.requests, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")


def make_handler(forge):
    owner_repo = re.escape(forge.project)
    number = re.escape(str(forge.number))
    project = re.escape(urllib.parse.quote(forge.project, safe=""))
    if forge.kind == "github":
        list_path = re.compile(rf"^/repos/{owner_repo}/issues/{number}/comments$")
        item_path = re.compile(rf"^/repos/{owner_repo}/issues/comments/(\d+)$")
    else:
        list_path = re.compile(rf"^/api/v4/projects/{project}/merge_requests/{number}/notes$")
        item_path = re.compile(rf"^/api/v4/projects/{project}/merge_requests/{number}/notes/(\d+)$")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, fmt, *args):  # quiet: the tests read --requests instead
            pass

        def answer(self, status, payload, problem=None, headers=(), body=None):
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json; charset=utf-8")
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            url = urllib.parse.urlsplit(self.path)
            forge.log({"method": self.command, "path": url.path, "query": url.query, "status": status,
                       "problem": problem, "body": body})

        def refuse(self, status, problem, body=None):
            return self.answer(status, {"message": problem}, problem=problem, body=body)

        def check_headers(self):
            """None when the headers are as documented, else (status, why)."""
            if forge.kind == "github":
                if self.headers.get("Authorization") != f"Bearer {forge.token}":
                    return 401, "Bad credentials: Authorization is not 'Bearer <token>'"
                if self.headers.get("Accept") != "application/vnd.github+json":
                    return 415, "Accept is not application/vnd.github+json"
                if self.headers.get("X-GitHub-Api-Version") != "2022-11-28":
                    return 400, "X-GitHub-Api-Version is not 2022-11-28"
                if not self.headers.get("User-Agent"):
                    return 403, "Request forbidden by administrative rules: no User-Agent"
            else:
                name = "JOB-TOKEN" if forge.job_token else "PRIVATE-TOKEN"
                if self.headers.get(name) != forge.token:
                    return 401, f"401 Unauthorized: no valid {name} header"
            return None

        def read_body(self):
            """The request's {"body": text}: (text, None) or (None, (status, why))."""
            if not self.headers.get("Content-Type", "").startswith("application/json"):
                return None, (415, "Content-Type is not application/json")
            raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                payload = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                return None, (400, f"Problems parsing JSON: {e}")
            if not isinstance(payload, dict) or set(payload) != {"body"} or not isinstance(payload["body"], str):
                return None, (422, f"the JSON body must be exactly {{\"body\": string}}, got keys {sorted(payload) if isinstance(payload, dict) else type(payload).__name__}")
            if not payload["body"].strip():
                return None, (422, "body is empty")
            if forge.kind == "github" and len(payload["body"]) > GITHUB_MAX_BODY:
                return None, (422, f"Body is too long (maximum is {GITHUB_MAX_BODY} characters)")
            return payload["body"], None

        def route(self):
            url = urllib.parse.urlsplit(self.path)
            return url, list_path.match(url.path), item_path.match(url.path)

        def do_GET(self):
            url, listing, _ = self.route()
            if not listing:
                return self.refuse(404, f"Not Found: GET {url.path}")
            problem = self.check_headers()
            if problem:
                return self.refuse(*problem)
            query = urllib.parse.parse_qs(url.query)
            try:
                per_page = int(query.get("per_page", ["30" if forge.kind == "github" else "20"])[0])
                page = int(query.get("page", ["1"])[0])
            except ValueError:
                return self.refuse(400, "per_page and page must be numbers")
            per_page = max(1, min(per_page, 100))  # both forges cap a page at 100
            with forge.lock:
                if forge.kind == "github":
                    listed = forge.comments  # ascending id
                else:  # GitLab lists notes newest first unless sort=asc
                    listed = forge.comments if query.get("sort", ["desc"])[0] == "asc" else forge.comments[::-1]
                total = len(listed)
                items = listed[(page - 1) * per_page:page * per_page]
            last = max(1, -(-total // per_page))
            base = f"http://{self.headers.get('Host')}{url.path}"
            links, headers = [], []
            keep = {k: v[0] for k, v in query.items() if k not in ("page", "per_page")}

            def page_url(p):
                return base + "?" + urllib.parse.urlencode({**keep, "per_page": per_page, "page": p})

            if page < last:
                links.append(f'<{page_url(page + 1)}>; rel="next"')
                links.append(f'<{page_url(last)}>; rel="last"')
            if page > 1:
                links.append(f'<{page_url(1)}>; rel="first"')
                links.append(f'<{page_url(page - 1)}>; rel="prev"')
            if links:
                headers.append(("Link", ", ".join(links)))
            if forge.kind == "gitlab":
                headers += [("X-Page", str(page)), ("X-Per-Page", str(per_page)), ("X-Total", str(total)),
                            ("X-Total-Pages", str(last)), ("X-Next-Page", str(page + 1) if page < last else "")]
            return self.answer(200, items, headers=headers)

        def do_POST(self):
            url, listing, _ = self.route()
            if not listing:
                return self.refuse(404, f"Not Found: POST {url.path}")
            problem = self.check_headers()
            if problem:
                return self.refuse(*problem)
            body, problem = self.read_body()
            if problem:
                return self.refuse(*problem)
            with forge.lock:
                comment = forge.add(body, author="github-actions[bot]" if forge.kind == "github" else "project_1_bot")
                forge.save()
            return self.answer(201, comment, body=body)

        def update(self, method):
            url, _, item = self.route()
            if not item:
                return self.refuse(404, f"Not Found: {method} {url.path}")
            problem = self.check_headers()
            if problem:
                return self.refuse(*problem)
            documented = "PATCH" if forge.kind == "github" else "PUT"
            if method != documented:
                return self.refuse(405, f"{method} is not how a comment is updated here: {documented}")
            body, problem = self.read_body()
            if problem:
                return self.refuse(*problem)
            with forge.lock:
                found = [c for c in forge.comments if c["id"] == int(item.group(1))]
                if not found:
                    return self.refuse(404, f"no comment {item.group(1)}", body=body)
                found[0]["body"] = body
                forge.save()
                comment = dict(found[0])
            return self.answer(200, comment, body=body)

        def do_PATCH(self):
            return self.update("PATCH")

        def do_PUT(self):
            return self.update("PUT")

        def do_DELETE(self):
            return self.refuse(405, "perfgate never deletes a comment")

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kind", choices=["github", "gitlab"], required=True)
    parser.add_argument("--token", required=True, help="the token every request must carry")
    parser.add_argument("--job-token", action="store_true", help="GitLab: expect JOB-TOKEN, not PRIVATE-TOKEN")
    parser.add_argument("--project", required=True, help="GitHub: owner/repo; GitLab: the project id or path")
    parser.add_argument("--number", required=True, help="the pull request number or merge request iid")
    parser.add_argument("--others", type=int, default=0, help="comments by other people before perfgate's")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--requests", help="JSON lines: every request and its answer")
    parser.add_argument("--state", help="the comments as they stand (JSON)")
    args = parser.parse_args()

    ThreadingHTTPServer.allow_reuse_address = True
    ThreadingHTTPServer.daemon_threads = True
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(Forge(args)))
    tmp = args.port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(f"{server.server_address[1]}\n")
    os.replace(tmp, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
