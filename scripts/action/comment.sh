#!/usr/bin/env bash
# The action's comment step (action.yml): posts the ledger (`tare ab`'s, or `tare compare`'s
# Markdown report) as one pull-request comment, and on later runs updates that comment instead of
# adding another. The comment is found by a marker line and its author (tare's own comments only),
# through the GitHub CLI (`gh api`, token in GH_TOKEN). `tare ab --ledger` already keeps the ledger
# under GitHub's 65,536-character limit (docs/campaign.md, "The ledger"); anything longer is cut
# here, saying so.
#
# The comment never fails the job (issue 45, item 5): the gate step alone decides. When GitHub
# refuses (a pull request from a fork gets a read-only GITHUB_TOKEN: HTTP 403), or gh is missing or
# fails, the step writes why to the job summary — with the ledger, unless the run step already put
# it there (TARE_IN_SUMMARY=true) — warns, and exits 0.
set -uo pipefail
export LC_ALL=C.UTF-8  # lengths and cuts in characters, as GitHub counts them, never inside one
ledger=${TARE_LEDGER:-}
pr=${TARE_PR:-}
repo=${GITHUB_REPOSITORY:-}
marker='<!-- tare-ledger -->'
if [ -z "$ledger" ] || [ ! -f "$ledger" ]; then echo "tare: no ledger${ledger:+ at $ledger}; nothing posted" >&2; exit 0; fi
if [ -z "$pr" ] || [ -z "$repo" ]; then echo "tare: not a pull request (no TARE_PR or GITHUB_REPOSITORY); nothing posted" >&2; exit 0; fi

# No comment: the reason, once, in the job summary and as a warning annotation; exit 0.
not_posted() {
  local why=$1
  echo "tare: no pull-request comment: $why" >&2
  echo "::warning title=tare::no pull-request comment: $why (the ledger is in the job summary)"
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    {
      printf '\n> **tare: no pull-request comment was posted.** %s\n\n' "$why"
      if [ "${TARE_IN_SUMMARY:-false}" != true ]; then cat "$ledger"; printf '\n'; fi
    } >> "$GITHUB_STEP_SUMMARY" || echo "tare: could not write the job summary '$GITHUB_STEP_SUMMARY'" >&2
  fi
  exit 0
}
# Why gh failed, in one line: GitHub's own message (its first line, without Markdown's backticks).
gh_error() {
  local first
  first=$(head -n 1 "$1" | tr -d '`\r' | cut -c1-200)
  if grep -q 'HTTP 403' "$1"; then
    echo "GitHub refused the token ($first): a pull request from a fork gets a read-only GITHUB_TOKEN, whatever the workflow's permissions say. docs/ci.md, \"Pull requests from forks\", says how to comment on those"
  elif [ -n "$first" ]; then
    echo "gh failed ($first)"
  else
    echo "gh failed without a message"
  fi
}
command -v gh >/dev/null || not_posted "the GitHub CLI (gh) is not installed in the job (Debian's gh package)"
err=$(mktemp)
trap 'rm -f "$err"' EXIT

limit=65536  # GitHub's limit on a comment, in characters
body="$marker"$'\n'"$(cat "$ledger")"
footer=""
if [ -n "${GITHUB_SERVER_URL:-}" ] && [ -n "${GITHUB_RUN_ID:-}" ]; then
  footer=$'\n\n'"<sub>tare, [run ${GITHUB_RUN_ID}](${GITHUB_SERVER_URL}/${repo}/actions/runs/${GITHUB_RUN_ID}): the store and the reports are its artifact.</sub>"
fi
if [ $(( ${#body} + ${#footer} )) -gt "$limit" ]; then
  cut_note=$'\n\n'"_Cut to fit GitHub's comment limit: the whole report is in the job summary and the artifact._"
  body=${body:0:$(( limit - ${#footer} - ${#cut_note} ))}$cut_note
fi
body+="$footer"
# Whose comment is ours: the token's user (a personal token, a GitHub App's bot), else — GitHub
# refuses /user to the workflow's GITHUB_TOKEN — github-actions[bot], whose comments it writes.
# The marker alone is not enough: anyone can write it in a comment (issue 48, item 3).
author=$(gh api user --jq .login 2>/dev/null) || author=""
[ -n "$author" ] || author='github-actions[bot]'
# The id of our earlier comment, if any: the first by that author whose body starts with the
# marker. Every page is read to its end and the first id taken here: `| head -n 1` closed the pipe
# after the first page's match, and gh died of SIGPIPE (exit 141 under pipefail) when a later page
# had another.
ids=$(gh api --paginate "repos/$repo/issues/$pr/comments" \
        --jq ".[] | select(.user.login == \"$author\" and (.body | startswith(\"$marker\"))) | .id" 2>"$err") ||
  not_posted "$(gh_error "$err")"
existing=${ids%%$'\n'*}
if [ -n "$existing" ]; then
  gh api --method PATCH "repos/$repo/issues/comments/$existing" -f body="$body" >/dev/null 2>"$err" ||
    not_posted "$(gh_error "$err")"
  echo "tare: updated the ledger comment $existing on #$pr" >&2
else
  gh api --method POST "repos/$repo/issues/$pr/comments" -f body="$body" >/dev/null 2>"$err" ||
    not_posted "$(gh_error "$err")"
  echo "tare: posted the ledger on #$pr" >&2
fi
exit 0
