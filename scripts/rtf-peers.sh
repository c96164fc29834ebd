#!/usr/bin/env bash
# What `npm run bench:rtf-peers` measures beside sluice's RTF reader: the npm RTF readers
# @iarna/rtf-to-html 1.1.0 (on rtf-parser) and rtf-stream-parser 3.8.1, installed (pinned) into
# .sluice/bench-peers/rtf, outside the project's dependencies. Idempotent; sluice needs none of them.
set -euo pipefail
dir="${SLUICE_DATA_DIR:-$(cd "$(dirname "$0")/.." && pwd)/.sluice}/bench-peers/rtf"
[[ -f "$dir/node_modules/@iarna/rtf-to-html/package.json" && -f "$dir/node_modules/rtf-stream-parser/package.json" ]] && exit 0
mkdir -p "$dir"
[[ -f "$dir/package.json" ]] || printf '{"name":"rtf-peers","private":true}\n' >"$dir/package.json"
npm install --prefix "$dir" --no-audit --no-fund --save-exact @iarna/rtf-to-html@1.1.0 rtf-stream-parser@3.8.1 >/dev/null
