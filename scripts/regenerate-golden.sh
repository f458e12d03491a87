#!/usr/bin/env bash
# Regenerates the golden CLI outputs in tests/golden/ from tests/golden/cases.txt: each case runs
# the built CLI from the repository root and records the command, exit code, stdout and stderr.
# Golden files are only ever written by this script.
#
#   scripts/regenerate-golden.sh [--cli PATH] [--out DIR]
#
# --cli defaults to $LAYOUTCHECK_CLI, else the first build*/src/cli/layoutcheck found; --out
# defaults to tests/golden (golden_test.cpp writes elsewhere and compares).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli=${LAYOUTCHECK_CLI:-}
out=$root/tests/golden
while [[ $# -gt 0 ]]; do
  case $1 in
    --cli) cli=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--cli PATH] [--out DIR]" >&2; exit 2 ;;
  esac
done
if [[ -z $cli ]]; then
  for candidate in "$root"/build/src/cli/layoutcheck "$root"/build*/src/cli/layoutcheck; do
    if [[ -x $candidate ]]; then cli=$candidate; break; fi
  done
fi
if [[ -z $cli || ! -x $cli ]]; then
  echo "$0: no layoutcheck binary; build the layoutcheck_cli target or pass --cli" >&2
  exit 2
fi

mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$root"
count=0
while IFS= read -r line; do
  [[ -z $line || $line == \#* ]] && continue
  name=${line%%:*}
  arguments=${line#*:}
  arguments=${arguments# }
  status=0
  # The arguments are ours (cases.txt), quoted as on a command line.
  eval "\"\$cli\" $arguments" >"$scratch/stdout" 2>"$scratch/stderr" || status=$?
  {
    printf '$ layoutcheck %s\n' "$arguments"
    printf '[exit %d]\n' "$status"
    printf -- '--- stdout\n'
    cat "$scratch/stdout"
    printf -- '--- stderr\n'
    cat "$scratch/stderr"
  } >"$out/$name.txt"
  count=$((count + 1))
done <"$root/tests/golden/cases.txt"
echo "wrote $count golden files to $out"
