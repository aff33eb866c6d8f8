#!/usr/bin/env bash
# The pull request comment on GitHub: `perfgate report --pr-comment` writes the body and
# ci/pr_comment.py posts it to a loopback stand-in of GitHub's REST API (tests/ci/forge_receiver.py)
# that checks each request as GitHub documents it (method, path, Bearer token, Accept, API
# version, JSON {"body"}). The first run walks two pages of other people's comments and creates
# one; the second updates that same comment (PATCH on its id), never a second one; a refused
# token fails the post, said without the token. The body, rendered by cmark-gfm (GitHub's own
# renderer), shows every hostile string planted in the results as text.
# Runs beside other tests: a loopback receiver; nothing measured, no tight time limit.
source "$PERFGATE_SOURCE_DIR/tests/ci/pr_comment_lib.bash"

REPO="octo-org/kernels"
PR=42
results run1 run-1 regressed
results run2 run-2 pass
comment_body run1
comment_body run2
GH=(GITHUB_TOKEN="$TOKEN" GITHUB_REPOSITORY="$REPO" PERFGATE_PR_NUMBER="$PR")

start_forge --kind github --project "$REPO" --number "$PR" --others 130
post run1 github "${GH[@]}" GITHUB_API_URL="http://127.0.0.1:$PORT"
[ "$RC" = 0 ] || fail "the first post exited $RC"
grep -q "^pr_comment: created comment [0-9]* on $REPO#$PR$" "$WORK/post-run1.out" || fail "the first post did not say it created the comment"
check_requests "GET /repos/$REPO/issues/$PR/comments
GET /repos/$REPO/issues/$PR/comments
POST /repos/$REPO/issues/$PR/comments"
python3 - "$REQUESTS" <<'PY' || fail "the listing did not ask 100 a page and follow the Link header"
import json, sys
gets = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["method"] == "GET"]
assert gets[0]["query"] == "per_page=100", gets[0]["query"]
assert "page=2" in gets[1]["query"], gets[1]["query"]
PY
first_id="$(check_one_comment "$WORK/run1.md")"

# The next push: the same comment updated in place, after walking the pages again.
: >"$REQUESTS"
post run2 github "${GH[@]}" GITHUB_API_URL="http://127.0.0.1:$PORT"
[ "$RC" = 0 ] || fail "the second post exited $RC"
check_requests "GET /repos/$REPO/issues/$PR/comments
GET /repos/$REPO/issues/$PR/comments
PATCH /repos/$REPO/issues/comments/$first_id"
[ "$(check_one_comment "$WORK/run2.md")" = "$first_id" ] || fail "the second post did not update comment $first_id"
python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))) == 131' "$STATE" || fail "a second comment was created"
grep -q "^pr_comment: updated comment $first_id on" "$WORK/post-run2.out" || fail "the second post did not say it updated"

# A refused token: exit 1, what GitHub answered said, the token not; the comment unchanged.
cp "$WORK/run2.md" "$WORK/refused.md"
cp "$WORK/run2.md" "$WORK/unset.md"
: >"$REQUESTS"
post refused github GITHUB_TOKEN="wrong-$TOKEN" GITHUB_REPOSITORY="$REPO" PERFGATE_PR_NUMBER="$PR" \
  GITHUB_API_URL="http://127.0.0.1:$PORT" GITHUB_ACTIONS=true
[ "$RC" = 1 ] || fail "a refused token exited $RC, expected 1"
grep -q "answered 401" "$WORK/post-refused.err" || fail "the refusal does not say what GitHub answered"
grep -q "^::warning title=perfgate pull request comment::" "$WORK/post-refused.out" || fail "no annotation on the run"
if grep -qF -- "wrong-" "$WORK/post-refused.err" "$WORK/post-refused.out"; then fail "the refused token was printed"; fi
[ "$(check_one_comment "$WORK/run2.md")" = "$first_id" ] || fail "a refused post changed the comment"
# Missing settings: exit 2, nothing sent.
: >"$REQUESTS"
post unset github GITHUB_REPOSITORY="$REPO" PERFGATE_PR_NUMBER="$PR" GITHUB_API_URL="http://127.0.0.1:$PORT"
{ [ "$RC" = 2 ] && grep -q "GITHUB_TOKEN is not set" "$WORK/post-unset.err"; } || fail "no token: exit $RC"
[ ! -s "$REQUESTS" ] || fail "a request was sent without a token"
check_no_token

# The hostile strings, as GitHub would show them (cmark-gfm: tables, autolinks, strikethrough;
# --unsafe keeps raw HTML, so that an unescaped tag would show up here).
command -v cmark-gfm >/dev/null || fail "cmark-gfm not found (ci/install-deps.sh installs it)"
cmark-gfm --unsafe -e table -e autolink -e strikethrough "$WORK/run1.md" >"$WORK/run1.html"
python3 - "$WORK/run1.html" "$DASHBOARD/index.html#/run/run-1" <<'PY' || fail "a hostile string is not text in the rendered comment"
import html.parser, sys
page, link = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
allowed = {"h2", "h3", "p", "strong", "em", "code", "table", "thead", "tbody", "tr", "th", "td", "ul", "li", "a"}

class Check(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.rows, self.links, self.code, self.in_code = "", [], [], [], False
    def handle_starttag(self, tag, attrs):
        assert tag in allowed, f"a <{tag}> element in the comment"
        if tag == "a":
            self.links.append(dict(attrs).get("href"))
        if tag == "tr":
            self.rows.append(0)
        if tag in ("td", "th"):
            self.rows[-1] += 1
        if tag == "code":
            self.in_code, self.code = True, self.code + [""]
    def handle_endtag(self, tag):
        if tag == "code":
            self.in_code = False
    def handle_data(self, data):
        if self.in_code:  # GitHub makes no mention, reference or link inside code
            self.code[-1] += data
        else:
            self.text += data
    def handle_comment(self, data):
        assert data.strip() == "perfgate-pr-comment", f"an HTML comment {data!r}"

c = Check()
c.feed(page)
assert c.links == [link], f"links {c.links}, expected only the dashboard's {link}"
assert c.rows and all(n == 8 for n in c.rows), f"table rows of {c.rows} cells: a string split a row"
for raw in ("@channel", "@all", "#12", "\x1b"):
    assert raw not in c.text, f"{raw!r} in the rendered text"
assert "\n## not a heading" not in page and "<h2>not a heading" not in page
hostile = "copy|x/<script>alert(1)</script>/[x](https://evil.example)/@channel/ next/\u241b[31m"
assert hostile in c.code, f"the case id is not shown whole as code: {c.code}"
assert "see [x](https://evil.example) @\u200bchannel <img src=x onerror=alert(1)> line two \u241b[0m #\u200b12" in c.text, c.text
PY
echo "pr_comment_github: ok"
