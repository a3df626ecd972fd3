#!/usr/bin/env bash
# build-deb.sh: builds .build/deb/vaultmail_<version>_<arch>.deb (`make deb`; docs/packaging.md).
# scripts/stage.sh lays the files out in the /usr layout; the version is the tool's own
# (`vaultmail --version`); Depends is what Debian's dpkg-shlibdeps finds the tool and llama.cpp's
# libraries need (Debian's runtime libraries by name, never the Swift toolchain: the tool links the
# Swift runtime statically). The on-device models are not in the package: `vaultmail ai download`.
# Prints the path of the package on its last line.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

fail() {
  echo "build-deb.sh: $*" >&2
  exit 1
}

for tool in dpkg-deb dpkg-shlibdeps patchelf; do
  command -v "$tool" >/dev/null || fail "$tool is missing: run scripts/install-package-deps.sh (make deb does)"
done

out="$root/.build/deb"
# dpkg-shlibdeps takes the libraries it finds under debian/<package>/ for the package's own.
work="$out/work"
package="$work/debian/vaultmail"
rm -rf "$work"
mkdir -p "$package"
scripts/stage.sh system "$package"

version="$("$package/usr/bin/vaultmail" --version)"
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || fail "vaultmail --version printed '$version', which is no Debian version"
arch="$(dpkg --print-architecture)"

# dpkg-shlibdeps reads the binary package's name from debian/control, and takes the package's
# root for the one holding DEBIAN/ (where $ORIGIN in the libraries' RUNPATH points).
mkdir -p "$package/DEBIAN"
cat > "$work/debian/control" <<CONTROL
Source: vaultmail

Package: vaultmail
Architecture: $arch
CONTROL
elfs=("$package/usr/bin/vaultmail")
while IFS= read -r -d '' library; do elfs+=("$library"); done \
  < <(find "$package/usr/lib/vaultmail" -type f -name 'lib*.so*' -print0 | sort -z)
# -l: where the tool's RUNPATH ($ORIGIN/../lib/vaultmail) points once installed.
(cd "$work" && dpkg-shlibdeps -O -l"$package/usr/lib/vaultmail" "${elfs[@]}") > "$work/substvars" 2> "$work/shlibdeps.log" \
  || { cat "$work/shlibdeps.log" >&2; fail "dpkg-shlibdeps could not work out the package's dependencies (log above)"; }
depends="$(sed -n 's/^shlibs:Depends=//p' "$work/substvars")"
[[ -n "$depends" ]] || fail "dpkg-shlibdeps found no dependencies (its log: $work/shlibdeps.log)"
if grep -Eiq 'swift|libllama|libggml' <<<"$depends"; then
  fail "the dependencies name the Swift toolchain or llama.cpp, which the package carries itself: $depends"
fi

# The files' dates are the last commit's, so the same tree gives the same package.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
# No address of the project's exists yet: .invalid says so (lintian: bogus-mail-host).
maintainer="VaultMail developers <vaultmail@invalid>"
# A native package's changelog: the commit it was built from.
commit="$(git log -1 --format='commit %h' 2>/dev/null || true)"
cat <<CHANGELOG | gzip -9n > "$package/usr/share/doc/vaultmail/changelog.gz"
vaultmail ($version) bookworm; urgency=medium

  * Built from ${commit:-a source tree outside git}.

 -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")
CHANGELOG
chmod 0644 "$package/usr/share/doc/vaultmail/changelog.gz"

installed_kib="$(du -sk --apparent-size --exclude=DEBIAN "$package" | cut -f1)"
# Besides what the binaries link: OpenBLAS, which VaultMailAI opens at run time (dlopen of
# libopenblas.so.0, BLASLibrary.swift), so dpkg-shlibdeps cannot see it; ca-certificates,
# the trust store GnuTLS verifies the mail servers against; sensible-utils, whose
# sensible-browser `vaultmail open` falls back to without xdg-open; gpg, gpg-agent and gpgconf,
# the GnuPG programs GPGME (libgpgme11, linked) runs for OpenPGP: libgpgme11 asks only for
# "gnupg | gpg", and gpg alone has no agent for the accounts' secret keys (docs/crypto.md). The
# tracker shield's lists are in the package (scripts/stage.sh); Debian's uBlock Origin packages are
# only suggested: when one is installed and newer, the daemon reads its lists (TrackerShield.swift,
# docs/privacy.md). A dependency on them would install a browser: each recommends its browser.
extra="libopenblas0, ca-certificates, sensible-utils, gpg, gpg-agent, gpgconf"
cat > "$package/DEBIAN/control" <<CONTROL
Package: vaultmail
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_kib
Depends: $depends, $extra
Recommends: xdg-utils, gnome-keyring
Suggests: notification-daemon, webext-ublock-origin-firefox | webext-ublock-origin-chromium
Section: mail
Priority: optional
Description: local-first, privacy-first email client with on-device AI
 VaultMail syncs IMAP accounts into a local SQLite store, threads
 conversations, sends through SMTP, decides which new mail deserves a desktop
 notification, and serves a web app on 127.0.0.1 ("vaultmail open").
 On-device AI (llama.cpp, shipped in /usr/lib/vaultmail) sorts mail into
 categories, finds it by meaning, suggests replies and summarizes
 conversations; no mail leaves the machine except to your own mail servers.
 .
 The AI models are not in this package: "vaultmail ai download" fetches them,
 when you ask for it, and checks their SHA-256.
CONTROL
(cd "$package" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$package/DEBIAN/md5sums"
chmod 0644 "$package/DEBIAN/control" "$package/DEBIAN/md5sums"

deb="$out/vaultmail_${version}_${arch}.deb"
rm -f "$out"/vaultmail_*.deb
dpkg-deb --root-owner-group -Zxz --build "$package" "$deb" >&2
echo "build-deb.sh: built $(realpath --relative-to="$root" "$deb") ($(du -k "$deb" | cut -f1) KiB; installed $installed_kib KiB)" >&2
echo "build-deb.sh: Depends: $depends, $extra" >&2
echo "$deb"
