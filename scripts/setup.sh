#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks for Reelsync: system packages (ffmpeg, chromium, exiftool,
# speech tools) and the npm dependencies from the lockfile. Safe to run again: it only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(
  ffmpeg                 # probing, cutting, keyframes, test media
  chromium               # browser tests of the UI
  fonts-dejavu-core      # drawn text in test media, UI screenshots
  libimage-exiftool-perl # camera metadata (exiftool)
  festival festvox-us-slt-hts # speech for the transcript test clip
  pocketsphinx pocketsphinx-en-us # offline speech recognition
  curl openssl           # benchmark baselines
  libsecret-tools gnome-keyring dbus # the OS keychain for the library key (web mode, CLI) and its test
  postgresql-15          # the team server's database, started by its tests (test/helpers/postgres.ts)
  opencv-doc mate-backgrounds # real photographs and street video for the search evaluation (test/search-eval)
)

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "setup: please install as root: apt-get install ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci when node_modules is missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci (better-sqlite3 compiles from source, ~90 s)"
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
fi
