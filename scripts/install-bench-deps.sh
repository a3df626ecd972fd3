#!/usr/bin/env bash
# Installs the peers the benchmarks measure VaultMail beside (`make bench`), when any is missing.
# Not needed to build or test VaultMail: CI runs scripts/install-deps.sh only.
# Safe to run again: it does nothing when everything is present.
set -euo pipefail

packages=(
  mailnag          # the peer of the e2e suite (APPEND → Notify, resident memory); pulls gir1.2-secret-1, gir1.2-notify-0.7
  gnome-keyring    # the Secret Service mailnag takes its password from (headless, on the suite's private bus)
  notmuch          # the peer of the search suite (notmuch new / search / count on the same Maildir)
)

exec "$(dirname "$0")/apt-install-missing.sh" "${packages[@]}"
