#!/usr/bin/env bash
# Installs the peers the benchmarks measure VaultMail beside (`make bench`), when any is missing.
# Not needed to build or test VaultMail: CI runs scripts/install-deps.sh only.
# Safe to run again: it does nothing when everything is present.
set -euo pipefail

packages=(
  mailnag          # the peer of the e2e suite (APPEND → Notify, resident memory); pulls gir1.2-secret-1, gir1.2-notify-0.7
  gnome-keyring    # the Secret Service mailnag takes its password from (headless, on the suite's private bus)
)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing: ${missing[*]}"
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
