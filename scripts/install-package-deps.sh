#!/usr/bin/env bash
# Installs the Debian packages that `make deb` (scripts/build-deb.sh, scripts/stage.sh) and
# `make package-test` (scripts/test-package.sh) use, when any is missing.
set -euo pipefail

packages=(
  dpkg-dev               # dpkg-shlibdeps: the package's Depends, from what its binaries need
  patchelf               # the installed tool's RUNPATH ($ORIGIN/../lib/vaultmail)
  binutils               # readelf (the RUNPATH check) and strip
  xz-utils               # dpkg-deb's xz compression
  debootstrap            # the clean Debian 12 root the package is installed into
  debian-archive-keyring # debootstrap checks the archive's signatures with it
)

exec "$(dirname "$0")/apt-install-missing.sh" "${packages[@]}"
