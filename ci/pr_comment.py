#!/usr/bin/env python3
"""ci/pr_comment.py {github,gitlab} BODY.md: keeps one perfgate comment on a pull request
(GitHub) or merge request note (GitLab), updated in place on each push, never a second one.

BODY.md is what `perfgate report RESULTS.json --pr-comment BODY.md` wrote; its first line, an
HTML comment, is the marker this script finds the comment by again. It lists the request's
comments (every page), updates the first whose body starts with that line, and creates one
where none does. Python's standard library only.

GitHub (REST API version 2022-11-28), from the workflow's environment:
  GITHUB_TOKEN        a token with `pull-requests: write` (the job's ${{ github.token }})
  GITHUB_REPOSITORY   owner/repo;  GITHUB_API_URL  default https://api.github.com
  PERFGATE_PR_NUMBER  the pull request; else pull_request.number of $GITHUB_EVENT_PATH
GitLab (REST API v4):
  PERFGATE_GITLAB_TOKEN  a project access token (scope api, role Reporter or more), sent as
                         PRIVATE-TOKEN; else CI_JOB_TOKEN as JOB-TOKEN, which GitLab accepts
                         for notes only where the project's job token permissions allow it
  CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID  (GitLab sets them in merge request pipelines)

Exit code: 0 the comment was created or updated, 1 the forge refused or could not be reached
(said on stderr, with what it answered), 2 a setting is missing or BODY.md is not perfgate's. The
token is never printed. The shipped CI recipes let a failed post leave the job's verdict alone.
"""
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

TIMEOUT_S = 30
MAX_PAGES = 100  # 10,000 comments at 100 a page


class Refused(Exception):
    """The forge answered with an error, or could not be reached."""


def fail(message, code):
    for secret in _SECRETS:
        message = message.replace(secret, "***")
    print(f"pr_comment: {message}", file=sys.stderr)
    if os.environ.get("GITHUB_ACTIONS") == "true":  # an annotation on the run's summary page
        print(f"::warning title=perfgate pull request comment::{message.splitlines()[0]}")
    return code


_SECRETS = []


class Forge:
    """One forge's comment API: where the comments are, how a request authenticates."""

    def __init__(self, api, headers, list_path, item_path, update_method, list_query):
        self.api = api.rstrip("/")
        self.headers = headers
        self.list_path = list_path
        self.item_path = item_path
        self.update_method = update_method
        self.list_query = list_query
        self.origin = urllib.parse.urlsplit(self.api)[:2]

    def request(self, method, url, body=None):
        """(decoded JSON, response headers); raises Refused."""
        data = None
        headers = dict(self.headers)
        headers["User-Agent"] = "perfgate-pr-comment"
        if body is not None:
            data = json.dumps({"body": body}).encode("utf-8")
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, method=method, headers=headers)
        shown = urllib.parse.urlsplit(url)._replace(query="").geturl()
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
                return json.loads(response.read().decode("utf-8") or "null"), response.headers
        except urllib.error.HTTPError as e:
            text = e.read(2000).decode("utf-8", "replace").strip()
            raise Refused(f"{method} {shown} answered {e.code} {e.reason}: {text[:500]}") from None
        except (urllib.error.URLError, OSError) as e:
            raise Refused(f"{method} {shown} failed: {getattr(e, 'reason', e)}") from None
        except json.JSONDecodeError as e:
            raise Refused(f"{method} {shown} answered something that is not JSON: {e}") from None

    def next_page(self, headers):
        """The next page's URL from the Link header, only on the API's own origin."""
        for part in (headers.get("Link") or "").split(","):
            url, _, params = part.partition(";")
            if 'rel="next"' in params.replace(" ", ""):
                url = url.strip().strip("<>")
                if urllib.parse.urlsplit(url)[:2] != self.origin:
                    raise Refused(f"the next page is on another host ({urllib.parse.urlsplit(url).netloc}): not followed")
                return url
        return None

    def find(self, marker):
        """The id of the first comment whose body starts with the marker line, or None."""
        url = f"{self.api}{self.list_path}?{urllib.parse.urlencode(self.list_query)}"
        for _ in range(MAX_PAGES):
            comments, headers = self.request("GET", url)
            if not isinstance(comments, list):
                raise Refused(f"GET {self.list_path} answered {type(comments).__name__}, not a list")
            for comment in comments:
                if comment.get("system"):  # GitLab's notes of events
                    continue
                if (comment.get("body") or "").split("\n", 1)[0].rstrip("\r") == marker:
                    return comment["id"]
            url = self.next_page(headers)
            if not url:
                return None
        raise Refused(f"more than {MAX_PAGES} pages of comments: not searched further")

    def post(self, body):
        marker = body.split("\n", 1)[0]
        found = self.find(marker)
        if found is None:
            comment, _ = self.request("POST", self.api + self.list_path, body)
            return "created", comment.get("id")
        self.request(self.update_method, self.api + self.item_path.format(id=found), body)
        return "updated", found


def need(name):
    value = os.environ.get(name, "")
    if not value:
        raise KeyError(name)
    return value


def github():
    token = need("GITHUB_TOKEN")
    _SECRETS.append(token)
    repo = need("GITHUB_REPOSITORY")
    number = os.environ.get("PERFGATE_PR_NUMBER", "")
    if not number and os.environ.get("GITHUB_EVENT_PATH"):
        with open(os.environ["GITHUB_EVENT_PATH"], encoding="utf-8") as f:
            number = str((json.load(f).get("pull_request") or {}).get("number") or "")
    if not number.isdigit():
        raise KeyError("PERFGATE_PR_NUMBER (or a pull_request event in GITHUB_EVENT_PATH)")
    owner_repo = "/".join(urllib.parse.quote(part, safe="") for part in repo.split("/", 1))
    return Forge(
        os.environ.get("GITHUB_API_URL") or "https://api.github.com",
        {"Authorization": f"Bearer {token}", "Accept": "application/vnd.github+json",
         "X-GitHub-Api-Version": "2022-11-28"},
        f"/repos/{owner_repo}/issues/{number}/comments",
        f"/repos/{owner_repo}/issues/comments/{{id}}",
        "PATCH",
        {"per_page": 100},
    ), f"{repo}#{number}"


def gitlab():
    if os.environ.get("PERFGATE_GITLAB_TOKEN"):
        token, header = os.environ["PERFGATE_GITLAB_TOKEN"], "PRIVATE-TOKEN"
    else:
        token, header = need("CI_JOB_TOKEN"), "JOB-TOKEN"
    _SECRETS.append(token)
    project = urllib.parse.quote(need("CI_PROJECT_ID"), safe="")
    iid = need("CI_MERGE_REQUEST_IID")
    if not iid.isdigit():
        raise KeyError("CI_MERGE_REQUEST_IID (a number)")
    notes = f"/projects/{project}/merge_requests/{iid}/notes"
    return Forge(need("CI_API_V4_URL"), {header: token}, notes, notes + "/{id}", "PUT",
                 {"per_page": 100, "sort": "asc", "order_by": "created_at"}), f"merge request !{iid}"


def main(argv):
    if len(argv) != 3 or argv[1] not in ("github", "gitlab") or argv[2] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if len(argv) != 2 else sys.stdout)
        return 0 if len(argv) == 2 and argv[1] in ("-h", "--help") else 2
    try:
        with open(argv[2], encoding="utf-8") as f:
            body = f.read()
    except (OSError, UnicodeDecodeError) as e:
        return fail(f"{argv[2]}: {e}", 2)
    marker = body.split("\n", 1)[0]
    if not (marker.startswith("<!--") and marker.endswith("-->") and len(body) > len(marker) + 1):
        return fail(f"{argv[2]}: its first line is not a marker comment: write it with perfgate report --pr-comment", 2)
    try:
        forge, where = github() if argv[1] == "github" else gitlab()
    except KeyError as e:
        return fail(f"{argv[1]}: {e.args[0]} is not set", 2)
    except (OSError, json.JSONDecodeError) as e:
        return fail(f"{argv[1]}: the event file: {e}", 2)
    try:
        action, comment_id = forge.post(body)
    except Refused as e:
        return fail(f"{where}: {e}", 1)
    print(f"pr_comment: {action} comment {comment_id} on {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
