#!/usr/bin/env bash
# stage.sh LAYOUT [DESTDIR]: builds the statically linked `vaultmail` tool and lays out every
# file that ships with it under DESTDIR (default: none, the real file system). One place for
# what is installed, used by both ways of installing VaultMail:
#   system  the Debian package's /usr layout (scripts/build-deb.sh stages into its package root);
#   user    PREFIX (default ~/.local) and the XDG directories, for one user (scripts/install.sh).
# What it lays out (docs/packaging.md): the tool in bin/ with RUNPATH $ORIGIN/../lib/vaultmail,
# llama.cpp's shared libraries and CPU-variant modules in lib/vaultmail/, the systemd user unit,
# the desktop entry, bash/zsh/fish completions and the man page (both made by the staged tool
# itself), the tracker shield's lists, the docs, and a `copyright` file.
# The on-device models are not staged: the package leaves them to `vaultmail ai download`,
# install.sh installs the ones `make deps` fetched.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

fail() {
  echo "stage.sh: $*" >&2
  exit 1
}

layout="${1:-}"
destdir="${2:-}"
case "$layout" in
  system)
    prefix=/usr
    datadir=/usr/share
    unitdir=/usr/lib/systemd/user
    zshdir=/usr/share/zsh/vendor-completions
    fishdir=/usr/share/fish/vendor_completions.d
    ;;
  user)
    prefix="${PREFIX:-$HOME/.local}"
    datadir="${XDG_DATA_HOME:-$prefix/share}"
    configdir="${XDG_CONFIG_HOME:-$HOME/.config}"
    unitdir="$configdir/systemd/user"
    zshdir="$datadir/zsh/site-functions"
    fishdir="$configdir/fish/completions"
    ;;
  *) fail "usage: scripts/stage.sh system|user [DESTDIR] (system: the Debian package's /usr layout; user: PREFIX, default ~/.local)" ;;
esac
[[ "$prefix" == /* ]] || fail "PREFIX must be an absolute path, not '$prefix'"
[[ -z "$destdir" || "$destdir" == /* ]] || destdir="$root/$destdir"
bindir="$prefix/bin"
# The tool finds the libraries beside it through its RUNPATH, relative to bin/.
libdir="$prefix/lib/vaultmail"
runpath='$ORIGIN/../lib/vaultmail'
docdir="$datadir/doc/vaultmail"
mandir="$prefix/share/man"
bashdir="$datadir/bash-completion/completions"

llama_lib="$root/.build/llama/lib"
shopt -s nullglob
llama_files=("$llama_lib"/lib*.so*)
shopt -u nullglob
[[ ${#llama_files[@]} -gt 0 ]] \
  || fail "no llama.cpp shared libraries (lib*.so*) in .build/llama/lib: run scripts/build-llama.sh (or make deps) first"
[[ -f "$root/.build/llama/LICENSE.llama.cpp" ]] \
  || fail ".build/llama/LICENSE.llama.cpp is missing: run scripts/build-llama.sh (or make deps) again"
command -v patchelf >/dev/null \
  || fail "patchelf is missing (it sets the tool's RUNPATH): run scripts/apt-install-missing.sh patchelf"

# The shipped binary links the Swift runtime and Foundation statically: it starts in about
# 15–17 ms of CPU instead of 23–27 (17 fewer shared libraries for the loader to bind) and needs no
# Swift toolchain at run time. Linked by the toolchain's lld with packed relative relocations
# (glibc 2.36 reads them), the loader no longer reads 3 MB of them at every start: 20 ms from
# exec to exit instead of 38. It has its own build directory, so the dynamic release build
# that `make bench` and `swift run -c release` use is not rebuilt (docs/e2e-benchmark.md).
# The RUNPATH given at link time is only a placeholder of the right kind: patchelf sets the
# final one below, whatever the package manifest adds for the build tree.
static=(-c release --static-swift-stdlib --scratch-path .build/static
        -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
        -Xlinker -rpath -Xlinker "$runpath")
echo "stage.sh: building the static vaultmail tool (.build/static)" >&2
swift build "${static[@]}" --product vaultmail >&2
built="$(swift build "${static[@]}" --show-bin-path)/vaultmail"

umask 022
tool="$destdir$bindir/vaultmail"
install -D -m 0755 "$built" "$tool"
install -d "$destdir$libdir"
# Every library file and its soname links as they are (cp -P keeps symbolic links links).
rm -f "$destdir$libdir"/lib*.so*
cp -P "${llama_files[@]}" "$destdir$libdir/"
if [[ "$layout" == system ]]; then
  # Debian ships binaries without their symbol tables (as dh_strip does).
  strip --strip-unneeded "$tool"
  for file in "$destdir$libdir"/lib*.so*; do
    [[ -L "$file" ]] || strip --strip-unneeded "$file"
  done
  chmod 0644 "$destdir$libdir"/lib*.so*
fi
patchelf --set-rpath "$runpath" "$tool"

# The tool must find every library it needs in the system or beside it, and nothing in the
# build tree or a Swift toolchain.
check_libraries() {
  local file="$1" needs
  needs="$(ldd "$file" 2>&1)" || fail "ldd cannot read $file: $needs"
  # Its own libraries, beside it (ldd names them bin/../lib/vaultmail/…).
  needs="$(grep -vF -e "=> $destdir$libdir/" -e "=> $destdir$bindir/../lib/vaultmail/" <<<"$needs" || true)"
  if grep -q 'not found' <<<"$needs"; then
    fail "$file needs libraries that are not found:"$'\n'"$(grep 'not found' <<<"$needs")"
  fi
  if grep -Eq '/swift|\.build/|/opt/' <<<"$needs"; then
    fail "$file loads a library from a Swift toolchain or the build tree:"$'\n'"$(grep -E '/swift|\.build/|/opt/' <<<"$needs")"
  fi
}
actual_runpath="$(readelf -d "$tool" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')"
[[ "$actual_runpath" == "$runpath" ]] || fail "the staged tool's RUNPATH is '$actual_runpath', not '$runpath'"
readelf -d "$tool" | grep -q '(RPATH)' && fail "the staged tool has an RPATH besides its RUNPATH"
check_libraries "$tool"
for file in "$destdir$libdir"/lib*.so*; do
  [[ -L "$file" ]] || check_libraries "$file"
done

install -D -m 0644 dist/vaultmail.desktop "$destdir$datadir/applications/vaultmail.desktop"
sed -e "s|@BINDIR@|$bindir|g" -e "s|@DOCDIR@|$docdir|g" dist/vaultmail.service.in \
  | install -D -m 0644 /dev/stdin "$destdir$unitdir/vaultmail.service"
# bash-completion sources the file: argument-parser's #!/bin/bash line has no use there.
"$tool" --generate-completion-script bash | sed '1{/^#!/d}' | install -D -m 0644 /dev/stdin "$destdir$bashdir/vaultmail"
"$tool" --generate-completion-script zsh | install -D -m 0644 /dev/stdin "$destdir$zshdir/_vaultmail"
"$tool" --generate-completion-script fish | install -D -m 0644 /dev/stdin "$destdir$fishdir/vaultmail.fish"

# The man page: swift-argument-parser's generate-manual, the tool behind its `generate-manual`
# package plugin, run on the staged tool. The plugin itself would first build every product of
# the package (the benchmarks and the demo too) in a release build of its own; the tool alone
# builds in a few seconds in the static build directory, from the ArgumentParser already built there.
swift build "${static[@]}" --product generate-manual >&2
manual_date="$(git log -1 --format=%cs 2>/dev/null || date -u +%F)"
pages="$(mktemp -d)"
trap 'rm -rf "$pages"' EXIT
"$(swift build "${static[@]}" --show-bin-path)/generate-manual" "$tool" --date "$manual_date" \
  --authors "VaultMail developers" --output-directory "$pages" >&2
[[ -s "$pages/vaultmail.1" ]] || fail "generate-manual made no vaultmail.1"
install -d "$destdir$mandir/man1"
gzip -9n -c "$pages/vaultmail.1" > "$destdir$mandir/man1/vaultmail.1.gz"
chmod 0644 "$destdir$mandir/man1/vaultmail.1.gz"

# The tracker shield's lists (docs/privacy.md): EasyPrivacy and uBlock filters – Privacy, copied
# from Debian's webext-ublock-origin-chromium (scripts/install-deps.sh installs it to build) into
# share/vaultmail/tracker-lists beside the tool, laid out as the extension is, with its manifest
# (the lists' version) and Debian's copyright file for them. The daemon reads this copy, or the
# user's own Debian uBlock package when that is newer (TrackerShield.load).
ublock=/usr/share/chromium/extensions/ublock-origin
listsdir="$prefix/share/vaultmail/tracker-lists"
rm -rf "$destdir$listsdir"
for file in assets/thirdparties/easylist/easyprivacy.txt assets/ublock/privacy.min.txt manifest.json; do
  [[ -s "$ublock/$file" ]] \
    || fail "$ublock/$file is missing: the tracker shield's lists are copied from Debian's webext-ublock-origin-chromium (scripts/install-deps.sh installs it)"
  install -D -m 0644 "$ublock/$file" "$destdir$listsdir/$file"
done
install -m 0644 /usr/share/doc/webext-ublock-origin-chromium/copyright "$destdir$listsdir/copyright"

install -d "$destdir$docdir"
install -m 0644 docs/*.md "$destdir$docdir/"
install -d "$destdir$docdir/web" && install -m 0644 docs/web/*.png "$destdir$docdir/web/"
install -m 0644 README.md "$destdir$docdir/README.md"
install -m 0644 .build/llama/LICENSE.llama.cpp "$destdir$docdir/LICENSE.llama.cpp"
install -m 0644 dist/copyright "$destdir$docdir/copyright"

echo "stage.sh: staged vaultmail $("$tool" --version) ($layout layout) into ${destdir:-/}" >&2
