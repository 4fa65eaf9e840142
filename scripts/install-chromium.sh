#!/usr/bin/env bash
# Installs Debian's Chromium (the browser every webview and end-to-end test drives through playwright-core) and, with
# --code-server-deps, the headers code-server's native modules build against. Idempotent; apt runs only when a package
# is missing. Playwright cannot download its own browsers here, so the tests use /usr/bin/chromium.
set -euo pipefail
need_apt=()
command -v chromium >/dev/null || need_apt+=(chromium)
if [ "${1:-}" = "--code-server-deps" ]; then
  for pkg in libkrb5-dev libsecret-1-dev libxkbfile-dev libx11-dev pkg-config; do
    dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
  done
fi
[ ${#need_apt[@]} -eq 0 ] && exit 0
echo "[install-chromium] apt-get install ${need_apt[*]}"
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
