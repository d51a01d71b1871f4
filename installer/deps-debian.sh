#!/usr/bin/env bash
# Installs what building, running and testing Switchyard needs on Debian 12, from Debian's own
# packages. Idempotent: does nothing when everything is already there.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools
  qt6-l10n-tools qt6-translations-l10n libqt6sql6-sqlite libgl-dev libvulkan-dev
  xvfb x11-utils xauth dpkg-dev file curl ca-certificates procps openssl
  clang libclang-rt-14-dev libqt6svg6 trayer
  systemd man-db desktop-file-utils
  python3 python3-numpy git
  prometheus  # promtool and a real Prometheus server for the /metrics tests (started by the tests on loopback)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "Installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
