#!/usr/bin/env bash
# Regenerates kernels/gdn/generated/*.h from contracts/gdn/*.yaml with `layoutcheck codegen`, so that
# the kernels' addressing is the reviewed contracts. tests/codegen checks the committed headers
# are current.
#   scripts/regenerate-kernel-headers.sh [path/to/layoutcheck]   (default: build/src/cli/layoutcheck)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-$root/build/src/cli/layoutcheck}
if [[ ! -x $cli ]]; then
  echo "regenerate-kernel-headers: no layoutcheck binary at $cli (build it, or pass its path)" >&2
  exit 2
fi
cd "$root"
for contract in contracts/gdn/*.yaml; do
  stem=$(basename "$contract" .yaml)
  header=kernels/gdn/generated/${stem//./_}.h
  "$cli" codegen "$contract" --source-label "$contract" -o "$header"
  echo "wrote $header"
done
