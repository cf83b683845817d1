#!/usr/bin/env bash
# The action's comment step (action.yml): posts the ledger as one pull-request comment, and on
# later runs updates that comment instead of adding another. The comment is found by a marker
# line and its author (tare's own comments only), through the GitHub CLI (`gh api`, token in
# GH_TOKEN). The ledger is already kept under GitHub's 65,536-character limit by
# `tare ab --ledger` (docs/campaign.md, "The ledger").
set -euo pipefail
ledger=${TARE_LEDGER:?no ledger to post}
pr=${TARE_PR:?not a pull request}
repo=${GITHUB_REPOSITORY:?set by GitHub Actions}
marker='<!-- tare-ledger -->'
[ -f "$ledger" ] || { echo "tare: no ledger at $ledger; nothing posted" >&2; exit 0; }
body="$marker"$'\n'"$(cat "$ledger")"
if [ -n "${GITHUB_SERVER_URL:-}" ] && [ -n "${GITHUB_RUN_ID:-}" ]; then
  body+=$'\n\n'"<sub>tare, [run ${GITHUB_RUN_ID}](${GITHUB_SERVER_URL}/${repo}/actions/runs/${GITHUB_RUN_ID}): the store and the reports are its artifact.</sub>"
fi
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
        --jq ".[] | select(.user.login == \"$author\" and (.body | startswith(\"$marker\"))) | .id")
existing=${ids%%$'\n'*}
if [ -n "$existing" ]; then
  gh api --method PATCH "repos/$repo/issues/comments/$existing" -f body="$body" >/dev/null
  echo "tare: updated the ledger comment $existing on #$pr" >&2
else
  gh api --method POST "repos/$repo/issues/$pr/comments" -f body="$body" >/dev/null
  echo "tare: posted the ledger on #$pr" >&2
fi
