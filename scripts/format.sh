#!/usr/bin/env bash
# clang-format over tare's own C and C++ sources, as .clang-format says (docs/testing.md, "Format and
# lint"). CI runs --check (scripts/test.sh).
#
#   scripts/format.sh [--check]   lists the files clang-format would change and how many lines; exit 1
#                                 if there is any, 0 if none
#   scripts/format.sh --fix       rewrites them in place
#
# The files: every tracked *.cc, *.h, *.c and *.hpp. Directories with a .clang-format that says
# DisableFormat are left as they are (Google Benchmark's examples copied verbatim, the example
# include/tare/tare.hpp quotes, the layout examples whose figures the docs quote); the fuzz corpora
# are data, not sources.
# The reference is Debian 12's clang-format 14 (scripts/deps.sh clang-format); another version may
# lay out a few lines otherwise, which is said.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:---check}
case "$mode" in
  --check | --fix) ;;
  *) echo "usage: scripts/format.sh [--check | --fix]" >&2; exit 2 ;;
esac
command -v clang-format >/dev/null || scripts/deps.sh clang-format
version=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$version" != 14 ]; then
  echo "tare: clang-format $version, not 14 (Debian 12's, which CI runs): a few lines may differ from CI's" >&2
fi
mapfile -t files < <(git ls-files -- '*.cc' '*.h' '*.c' '*.hpp')

if [ "$mode" = --fix ]; then
  printf '%s\0' "${files[@]}" | xargs -0 clang-format -i
  echo "tare: formatted ${#files[@]} files; 'git diff --stat' shows what changed" >&2
  exit 0
fi

# One process for all files: --dry-run names each place that would change.
report=$(printf '%s\0' "${files[@]}" | xargs -0 clang-format --dry-run 2>&1 || true)
bad=$(sed -n 's/^\(.*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' <<<"$report" | sort | uniq -c)
if [ -n "$bad" ]; then
  echo "$bad" | awk '{ printf "%s: %d place(s) differ from .clang-format\n", $2, $1 }'
  echo "tare: $(wc -l <<<"$bad") of ${#files[@]} files are not formatted; scripts/format.sh --fix formats them" >&2
  exit 1
fi
if grep -q "error" <<<"$report"; then
  echo "$report" >&2
  exit 2
fi
echo "tare: ${#files[@]} files formatted as .clang-format says" >&2
