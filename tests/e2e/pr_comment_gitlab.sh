#!/usr/bin/env bash
# The merge request note on GitLab: ci/pr_comment.py posts what `perfgate report --pr-comment`
# wrote to a loopback stand-in of GitLab's notes API (tests/ci/forge_receiver.py) that checks each
# request as GitLab documents it (method, path under CI_API_V4_URL, PRIVATE-TOKEN or JOB-TOKEN,
# JSON {"body"}). The first run walks two pages of notes (system notes among them) and creates
# one; the second updates that note (PUT on its id), never a second one; a refused token fails
# the post, said without the token.
# Runs beside other tests: a loopback receiver; nothing measured, no tight time limit.
source "$PERFGATE_SOURCE_DIR/tests/ci/pr_comment_lib.bash"

PROJECT=278964
MR=17
NOTES="/api/v4/projects/$PROJECT/merge_requests/$MR/notes"
results run1 run-1 regressed
results run2 run-2 pass
comment_body run1
comment_body run2
cp "$WORK/run1.md" "$WORK/job.md"
cp "$WORK/run2.md" "$WORK/refused.md"
GL=(CI_PROJECT_ID="$PROJECT" CI_MERGE_REQUEST_IID="$MR")

start_forge --kind gitlab --project "$PROJECT" --number "$MR" --others 150
post run1 gitlab "${GL[@]}" CI_API_V4_URL="http://127.0.0.1:$PORT/api/v4" PERFGATE_GITLAB_TOKEN="$TOKEN" \
  CI_JOB_TOKEN="job-token-not-used"
[ "$RC" = 0 ] || fail "the first post exited $RC"
grep -q "^pr_comment: created comment [0-9]* on merge request !$MR$" "$WORK/post-run1.out" || fail "the first post did not say it created the note"
check_requests "GET $NOTES
GET $NOTES
POST $NOTES"
python3 - "$REQUESTS" <<'PY' || fail "the listing did not ask 100 a page, oldest first, and follow to page 2"
import json, sys, urllib.parse
gets = [json.loads(l) for l in open(sys.argv[1]) if json.loads(l)["method"] == "GET"]
first = urllib.parse.parse_qs(gets[0]["query"])
assert first == {"per_page": ["100"], "sort": ["asc"], "order_by": ["created_at"]}, first
assert urllib.parse.parse_qs(gets[1]["query"])["page"] == ["2"], gets[1]["query"]
PY
first_id="$(check_one_comment "$WORK/run1.md")"

: >"$REQUESTS"
post run2 gitlab "${GL[@]}" CI_API_V4_URL="http://127.0.0.1:$PORT/api/v4" PERFGATE_GITLAB_TOKEN="$TOKEN"
[ "$RC" = 0 ] || fail "the second post exited $RC"
check_requests "GET $NOTES
GET $NOTES
PUT $NOTES/$first_id"
[ "$(check_one_comment "$WORK/run2.md")" = "$first_id" ] || fail "the second post did not update note $first_id"
python3 -c 'import json,sys; assert len(json.load(open(sys.argv[1]))) == 151' "$STATE" || fail "a second note was created"

: >"$REQUESTS"
post refused gitlab "${GL[@]}" CI_API_V4_URL="http://127.0.0.1:$PORT/api/v4" PERFGATE_GITLAB_TOKEN="wrong-$TOKEN"
[ "$RC" = 1 ] || fail "a refused token exited $RC, expected 1"
grep -q "answered 401" "$WORK/post-refused.err" || fail "the refusal does not say what GitLab answered"
if grep -qF -- "wrong-" "$WORK/post-refused.err" "$WORK/post-refused.out"; then fail "the refused token was printed"; fi
[ "$(check_one_comment "$WORK/run2.md")" = "$first_id" ] || fail "a refused post changed the note"

# Without a project access token, the job's own token as JOB-TOKEN.
start_forge --kind gitlab --project "$PROJECT" --number "$MR" --job-token
post job gitlab "${GL[@]}" CI_API_V4_URL="http://127.0.0.1:$PORT/api/v4" CI_JOB_TOKEN="$TOKEN"
[ "$RC" = 0 ] || fail "the post with CI_JOB_TOKEN exited $RC"
check_requests "GET $NOTES
POST $NOTES"
check_no_token
echo "pr_comment_gitlab: ok"
