#!/usr/bin/env bash
# The pull-request review of layout contracts, as one Markdown comment: every contract linted,
# then each contract the branch changed diffed against its version at the base, with its picture.
#
#   scripts/review-contracts.sh --base REF [--out FILE.md] [--pictures DIR] [--cli PATH]
#                               [PATHSPEC...]
#
# PATHSPEC (git pathspecs, default ':(glob)**/contracts/**/*.yaml') says which files are contracts.
# A changed contract is diffed with the branch's version as the producer and the base's as the
# consumer: what a kernel built for the base layout misreads in a buffer laid out the new way.
# --pictures DIR also writes each diff's SVG there (and a PNG beside it where rsvg-convert is
# installed), linked from the comment by file name. Exit status: 0 when every contract lints
# clean, 1 when one does not, 2 on a usage error; changed layouts are the review's business, not a
# failure. docs/ci/layoutcheck-contracts.yml runs this in CI and posts the result.
set -euo pipefail

base=""
out=""
pictures=""
cli=${LAYOUTCHECK_CLI:-layoutcheck}
specs=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --base) base=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --pictures) pictures=$2; shift 2 ;;
    --cli) cli=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "$0: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) specs+=("$1"); shift ;;
  esac
done
[[ -n $base ]] || { echo "$0: --base REF is required (the branch the pull request merges into)" >&2; exit 2; }
command -v "$cli" >/dev/null 2>&1 || { echo "$0: no layoutcheck at '$cli' (use --cli PATH)" >&2; exit 2; }
git rev-parse --verify --quiet "$base^{commit}" >/dev/null ||
  { echo "$0: --base $base is not a commit here (fetch it first: git fetch origin BRANCH)" >&2; exit 2; }
[[ ${#specs[@]} -gt 0 ]] || specs=(':(glob)**/contracts/**/*.yaml')
[[ -z $pictures ]] || mkdir -p "$pictures"

report=$(mktemp)
trap 'rm -f "$report" "$report.diff" "$report.err"' EXIT
status=0

mapfile -t contracts < <(git ls-files -- "${specs[@]}" | sort -u)
if [[ ${#contracts[@]} -eq 0 ]]; then
  echo "### layoutcheck: no contracts match ${specs[*]}" >>"$report"
else
  "$cli" lint --format md "${contracts[@]}" >>"$report" || status=$?
  [[ $status -le 1 ]] || { cat "$report" >&2; exit "$status"; }
fi

# Files the branch changed since it left the base (three dots: the merge base), renames followed.
mapfile -t changed < <(git diff --name-status -M --diff-filter=AMRD "$base"...HEAD -- "${specs[@]}")
for entry in "${changed[@]}"; do
  IFS=$'\t' read -r kind first second <<<"$entry"
  echo >>"$report"
  case $kind in
    A) echo "New contract \`$first\` (linted above)." >>"$report"; continue ;;
    D) echo "Contract \`$first\` removed." >>"$report"; continue ;;
    R*) old=$first; new=$second ;;
    *) old=$first; new=$first ;;
  esac
  args=(diff "$new" - --format md)
  if [[ -n $pictures ]]; then
    picture="$pictures/$(echo "$new" | tr '/' '_' | sed 's/\.ya\{0,1\}ml$//').svg"
    args+=(--picture "$picture")
  fi
  diff_status=0
  git show "$base:$old" | "$cli" "${args[@]}" >"$report.diff" 2>"$report.err" || diff_status=$?
  if [[ $diff_status -le 1 ]]; then
    # The comment links the picture by file name; a PNG, where one can be made, shows everywhere.
    if [[ -n $pictures ]] && command -v rsvg-convert >/dev/null 2>&1; then
      rsvg-convert "$picture" -o "${picture%.svg}.png"
      sed -i "s|]($(basename "$picture"))|]($(basename "${picture%.svg}.png"))|" "$report.diff"
    fi
    { echo "Changed: \`$new\`, the branch's layout against the base's."; echo; cat "$report.diff"; } >>"$report"
  else
    { echo "Changed: \`$new\`, which cannot be diffed against the base's \`$old\`:"; echo
      echo '```'; cat "$report.err"; echo '```'; } >>"$report"
  fi
done

if [[ -n $out ]]; then cp "$report" "$out"; else cat "$report"; fi
exit "$status"
