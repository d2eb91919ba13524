#!/usr/bin/env bash
# Runs every `sh` block of docs/guide.md, in order, as a user would after
# scripts/setup.sh: in a scratch folder where examples/ is the repository's.
# A block that fails fails the script, naming the block, so the guide's
# commands cannot rot. The test command (scripts/test.sh) runs it.
#   scripts/check_guide.sh [--keep]   (--keep: leave the scratch folder)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
guide=$repo/docs/guide.md
keep=0
[ "${1:-}" = "--keep" ] && keep=1

work=$(mktemp -d)
((keep)) || trap 'rm -rf "$work"' EXIT
ln -s "$repo/examples" "$work/examples"

# One file per block: block_01.sh, block_02.sh, ...
awk -v dir="$work" '
  /^```sh$/ { n++; file = sprintf("%s/block_%02d.sh", dir, n); inside = 1; next }
  /^```/ && inside { inside = 0; close(file); next }
  inside { print > file }
' "$guide"

blocks=("$work"/block_*.sh)
[ -e "${blocks[0]}" ] || { echo "check_guide: no sh block in $guide" >&2; exit 1; }
for block in "${blocks[@]}"; do
  name=$(basename "$block" .sh)
  echo "== docs/guide.md, $name:"
  sed 's/^/   $ /' "$block"
  if ! (cd "$work" && bash -euo pipefail "$block" >"$block.log" 2>&1); then
    tail -20 "$block.log" >&2
    echo "check_guide: $name of docs/guide.md failed (output above; scratch folder $work)" >&2
    keep=1
    trap - EXIT
    exit 1
  fi
done
echo "check_guide: all ${#blocks[@]} blocks of docs/guide.md ran"
((keep)) && echo "scratch folder kept: $work"
exit 0
