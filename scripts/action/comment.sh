#!/usr/bin/env bash
# The action's comment step (action.yml): posts the ledger as one pull-request comment, and on
# later runs updates that comment instead of adding another. The comment is found by a marker
# line, through the GitHub CLI (`gh api`, token in GH_TOKEN). The ledger is already kept under
# GitHub's 65,536-character limit by `tare ab --ledger` (docs/campaign.md, "The ledger").
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
# The id of our earlier comment, if any: the first whose body starts with the marker.
existing=$(gh api --paginate "repos/$repo/issues/$pr/comments" \
             --jq "[.[] | select(.body | startswith(\"$marker\"))][0].id // empty" | head -n 1)
if [ -n "$existing" ]; then
  gh api --method PATCH "repos/$repo/issues/comments/$existing" -f body="$body" >/dev/null
  echo "tare: updated the ledger comment $existing on #$pr" >&2
else
  gh api --method POST "repos/$repo/issues/$pr/comments" -f body="$body" >/dev/null
  echo "tare: posted the ledger on #$pr" >&2
fi
