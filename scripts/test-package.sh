#!/usr/bin/env bash
# test-package.sh [DEB]: installs the Debian package (`make deb`; default the one in .build/deb)
# into a clean Debian 12 (bookworm) root made with `debootstrap --variant=minbase` from this
# machine's Debian mirror, resolving its dependencies from Debian with apt, then, inside that root
# as a normal user: `vaultmail --version`, `vaultmail ai status`, and `vaultmail daemon`, whose web
# page it fetches over loopback (and signs in as `vaultmail open` lets a browser), then stops the
# daemon. Prints a PASS or FAIL line for each check and the time of each phase; exits non-zero on
# any failure. Everything it mounts is unmounted and the root removed on exit, also on failure.
# `make package-test` runs it; it needs root (debootstrap, chroot, mount). The downloaded .debs
# are kept in /var/cache/vaultmail-package-test (VAULTMAIL_PACKAGE_TEST_CACHE) for the next run.
set -euo pipefail
project="$(cd "$(dirname "$0")/.." && pwd)"
cd "$project"

suite=bookworm
test_user=vaultmail-test
cache="${VAULTMAIL_PACKAGE_TEST_CACHE:-/var/cache/vaultmail-package-test}"
started=$SECONDS
failures=0

note() { echo "test-package: $*"; }
pass() { echo "PASS: $*"; }
failed() { echo "FAIL: $*"; failures=$((failures + 1)); }
# A failure the rest cannot go on from.
abort() { echo "FAIL: $*"; echo "test-package: stopped at the first failure above"; exit 1; }

if [[ "$(id -u)" -ne 0 ]]; then
  command -v sudo >/dev/null || abort "this test needs root (debootstrap, chroot and mount): run it as root"
  exec sudo --preserve-env=VAULTMAIL_PACKAGE_TEST_CACHE "$0" "$@"
fi

deb="${1:-}"
if [[ -z "$deb" ]]; then
  shopt -s nullglob
  debs=("$project"/.build/deb/vaultmail_*_"$(dpkg --print-architecture)".deb)
  shopt -u nullglob
  [[ ${#debs[@]} -eq 1 ]] || abort "expected one package in .build/deb, found ${#debs[@]}: run make deb first (or pass the .deb)"
  deb="${debs[0]}"
fi
[[ -f "$deb" ]] || abort "no package at $deb: run make deb first"
deb="$(realpath "$deb")"
version="$(dpkg-deb -f "$deb" Version)"

"$project/scripts/install-package-deps.sh"

# The mirror this machine's apt uses for bookworm itself (deb822 first, then the one-line format).
mirror=""
if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
  uris="" suites=""
  while IFS= read -r line || [[ -n "$line" ]]; do
    case "$line" in
      URIs:*) uris="${line#URIs:}" ;;
      Suites:*) suites="${line#Suites:}" ;;
      "")
        [[ -z "$mirror" && " $suites " == *" $suite "* ]] && read -r mirror _ <<<"$uris"
        uris="" suites=""
        ;;
    esac
  done < /etc/apt/sources.list.d/debian.sources
  [[ -z "$mirror" && " $suites " == *" $suite "* ]] && read -r mirror _ <<<"$uris"
fi
if [[ -z "$mirror" && -f /etc/apt/sources.list ]]; then
  mirror="$(awk -v suite="$suite" '$1 == "deb" && $3 == suite { print $2; exit }' /etc/apt/sources.list)"
fi
[[ -n "$mirror" ]] || abort "found no Debian mirror for $suite in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"

rootfs="$(mktemp -d /var/tmp/vaultmail-package-test.XXXXXX)"
chmod 0755 "$rootfs"   # the root's / (mktemp makes it 0700, which would lock the test user out)
daemon_pid=""

# Mount points at or under the root, deepest first.
mounts_under_root() {
  awk -v root="$rootfs" '$5 == root || index($5, root "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r
}

cleanup() {
  local status=$? proc
  # Nothing may stop the cleanup half-way (a root left with the host's /dev mounted in it).
  trap '' INT TERM
  trap - EXIT
  # The daemon, and anything else still running inside the root (only what this test started there).
  [[ -n "$daemon_pid" ]] && kill -TERM "$daemon_pid" 2>/dev/null || true
  for proc in /proc/[0-9]*; do
    if [[ "$(readlink "$proc/root" 2>/dev/null)" == "$rootfs" ]]; then kill -KILL "${proc#/proc/}" 2>/dev/null || true; fi
  done
  local mount
  for mount in $(mounts_under_root); do
    umount "$mount" 2>/dev/null || umount --lazy "$mount" || true
  done
  if [[ -n "$(mounts_under_root)" ]]; then
    echo "FAIL: could not unmount $(mounts_under_root | tr '\n' ' '); left $rootfs in place: unmount them, then remove it"
    status=1
  else
    rm -rf --one-file-system "$rootfs"
  fi
  rm -f "$rootfs.debootstrap.log"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# 1. A clean Debian 12 root.
phase=$SECONDS
mkdir -p "$cache/debootstrap" "$cache/apt"
note "debootstrap --variant=minbase $suite from $mirror into $rootfs"
debootstrap --variant=minbase --cache-dir="$cache/debootstrap" "$suite" "$rootfs" "$mirror" > "$rootfs.debootstrap.log" 2>&1 \
  || { tail -n 20 "$rootfs.debootstrap.log"; rm -f "$rootfs.debootstrap.log"; abort "debootstrap could not make a $suite root from $mirror (log above)"; }
rm -f "$rootfs.debootstrap.log"
debootstrap_seconds=$((SECONDS - phase))
pass "clean Debian $suite root made by debootstrap --variant=minbase in ${debootstrap_seconds} s ($(du -sm --one-file-system "$rootfs" | cut -f1) MB)"

mount -t proc proc "$rootfs/proc"
mount -t sysfs sysfs "$rootfs/sys"
mount --bind /dev "$rootfs/dev"
cp -L /etc/resolv.conf "$rootfs/etc/resolv.conf"
# The same Debian archives as this machine (bookworm, its updates and security), when it lists them so.
if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
  cp /etc/apt/sources.list.d/debian.sources "$rootfs/etc/apt/sources.list.d/debian.sources"
  rm -f "$rootfs/etc/apt/sources.list"
fi

in_root() { chroot "$rootfs" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

# 2. The package, with what it depends on from Debian.
phase=$SECONDS
in_root apt-get update -qq > "$rootfs/apt.log" 2>&1 || { cat "$rootfs/apt.log"; abort "apt-get update failed inside the root (log above)"; }
cached=$(find "$cache/apt" -maxdepth 1 -name '*.deb' | wc -l)
[[ "$cached" -gt 0 ]] && cp "$cache"/apt/*.deb "$rootfs/var/cache/apt/archives/"
install -m 0644 "$deb" "$rootfs/tmp/"
if in_root apt-get install -y -q --no-install-recommends "/tmp/$(basename "$deb")" > "$rootfs/apt.log" 2>&1; then
  cp -n "$rootfs"/var/cache/apt/archives/*.deb "$cache/apt/" 2>/dev/null || true
  install_seconds=$((SECONDS - phase))
  new_packages=$(grep -c '^Setting up ' "$rootfs/apt.log" || true)
  pass "apt-get install ./$(basename "$deb") in ${install_seconds} s: $new_packages packages set up, all from Debian but vaultmail (${cached} .debs were cached)"
  in_root apt-get clean
  note "the root with vaultmail and its dependencies: $(du -sm --one-file-system "$rootfs" | cut -f1) MB; installed: $(sed -n 's/^Setting up \([^: ]*\).*/\1/p' "$rootfs/apt.log" | sort | tr '\n' ' ')"
else
  tail -n 30 "$rootfs/apt.log"
  abort "apt-get could not install $(basename "$deb") in a clean $suite root (log above)"
fi
in_root dpkg-query -W -f='${Status}\n' vaultmail | grep -q 'install ok installed' \
  || abort "dpkg does not list vaultmail as installed"
if in_root dpkg-query -W -f='${Package}\n' | grep -Ei 'swift' ; then
  failed "a Swift package was installed beside vaultmail (above)"
else
  pass "no Swift toolchain package installed"
fi
needs="$(in_root ldd /usr/bin/vaultmail 2>&1)" || true
if grep -Eq 'not found|/swift|/opt/' <<<"$needs"; then
  failed "/usr/bin/vaultmail misses libraries in the clean root:"$'\n'"$(grep -E 'not found|/swift|/opt/' <<<"$needs")"
else
  pass "/usr/bin/vaultmail finds every library it needs in the root ($(grep -c '=>' <<<"$needs") shared libraries)"
fi
llama="$(grep -o 'libllama\.so[^ ]* => [^ ]*' <<<"$needs" || true)"
if [[ "$llama" == *" => /usr/bin/../lib/vaultmail/"* || "$llama" == *" => /usr/lib/vaultmail/"* ]]; then
  pass "llama.cpp is loaded from the package's /usr/lib/vaultmail (RUNPATH \$ORIGIN/../lib/vaultmail): $llama"
else
  failed "llama.cpp is not loaded from /usr/lib/vaultmail: '${llama:-libllama not needed}'"
fi
for file in /usr/share/man/man1/vaultmail.1.gz /usr/lib/systemd/user/vaultmail.service /usr/share/applications/vaultmail.desktop \
            /usr/share/bash-completion/completions/vaultmail /usr/share/zsh/vendor-completions/_vaultmail \
            /usr/share/fish/vendor_completions.d/vaultmail.fish /usr/share/doc/vaultmail/copyright; do
  [[ -s "$rootfs$file" ]] || failed "the package installed no $file"
done
# The tracker shield's lists come inside the package, and no browser or extension with it (docs/privacy.md).
for list in assets/thirdparties/easylist/easyprivacy.txt assets/ublock/privacy.min.txt manifest.json copyright; do
  [[ -s "$rootfs/usr/share/vaultmail/tracker-lists/$list" ]] \
    || failed "the package installed no tracker list file /usr/share/vaultmail/tracker-lists/$list"
done
for unwanted in chromium webext-ublock-origin-chromium firefox-esr webext-ublock-origin-firefox; do
  if in_root dpkg-query -W -f='${Status}' "$unwanted" 2>/dev/null | grep -q 'install ok installed'; then
    failed "installing vaultmail installed $unwanted"
  fi
done
# GnuPG's programs that GPGME runs for OpenPGP come with the package's Depends (docs/crypto.md).
for program in /usr/bin/gpg /usr/bin/gpg-agent /usr/bin/gpgconf; do
  [[ -x "$rootfs$program" ]] || failed "$program did not come with the package (Depends: gpg, gpg-agent, gpgconf); OpenPGP mail cannot be read"
done
grep -qs '^ExecStart=/usr/bin/vaultmail daemon$' "$rootfs/usr/lib/systemd/user/vaultmail.service" \
  || failed "the systemd user unit does not start /usr/bin/vaultmail daemon"

# 3. The tool, as a normal user with a home inside the root.
in_root useradd --create-home --shell /bin/bash "$test_user"
uid="$(in_root id -u "$test_user")"
gid="$(in_root id -g "$test_user")"
home="/home/$test_user"
# A command prefix rather than a function: run in the background, its $! is the command's own pid.
as_user=(chroot --userspec="$uid:$gid" "$rootfs" /usr/bin/env -i HOME="$home" USER="$test_user" LOGNAME="$test_user"
         PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8)

phase=$SECONDS
if output="$("${as_user[@]}" timeout 30 vaultmail --version 2>&1)" && [[ "$output" == "$version" ]]; then
  pass "vaultmail --version: $output"
else
  failed "vaultmail --version printed '$output', expected the package's version $version"
fi

if output="$("${as_user[@]}" timeout 60 vaultmail ai status 2>&1)"; then
  if grep -q 'ai download' <<<"$output"; then
    pass "vaultmail ai status: no model installed, and it says how to get them (vaultmail ai download)"
  else
    failed "vaultmail ai status does not point to vaultmail ai download without models"
  fi
  # The processor code it chose among the llama.cpp CPU modules the package installed.
  if grep -Eq '^ *writing model: llama\.cpp [a-z0-9]+' <<<"$output"; then
    pass "vaultmail ai status finds llama.cpp's CPU code in the package: $(grep -Eo 'llama\.cpp [a-z0-9]+' <<<"$output" | head -n 1)"
  else
    failed "vaultmail ai status names no llama.cpp CPU code for the writing model"
  fi
  sed 's/^/    /' <<<"$output"
else
  failed "vaultmail ai status exited with an error:"$'\n'"$output"
fi

# The sentence model installed from files, as on a machine without internet (`make deps` fetched
# it into .build/models): OpenBLAS, which VaultMailAI opens at run time and no binary links, is
# then loaded — what the package's Depends on libopenblas0 is for.
model=all-minilm-l6-v2
if [[ -d "$project/.build/models/$model" ]]; then
  cp -r "$project/.build/models/$model" "$rootfs/tmp/$model"
  chmod -R a+rX "$rootfs/tmp/$model"
  if output="$("${as_user[@]}" timeout 120 vaultmail ai install "$model" "/tmp/$model" 2>&1)"; then
    pass "vaultmail ai install $model from files: $output"
    output="$("${as_user[@]}" timeout 60 vaultmail ai status 2>&1 || true)"
    if grep -Eq '^ *sentence model: OpenBLAS [A-Za-z0-9]+ kernels' <<<"$output"; then
      pass "vaultmail ai status loads Debian's OpenBLAS for the sentence model: $(grep -Eo 'OpenBLAS [A-Za-z0-9]+ kernels' <<<"$output" | head -n 1)"
    else
      failed "vaultmail ai status could not load OpenBLAS (libopenblas.so.0) for the sentence model:"$'\n'"$output"
    fi
  else
    failed "vaultmail ai install $model /tmp/$model failed:"$'\n'"$output"
  fi
  rm -rf "$rootfs/tmp/$model"
else
  failed "no .build/models/$model to install into the root: run scripts/install-models.sh (make deps does)"
fi

# 4. The daemon and its web page. --web-port 0: a free port, which it writes to web-port in its home.
port_file="$rootfs$home/.local/share/vaultmail/web-port"
daemon_log="$rootfs$home/daemon.log"
"${as_user[@]}" vaultmail daemon --web-port 0 > "$daemon_log" 2>&1 &
daemon_pid=$!
deadline=$((SECONDS + 60))
port=""
while [[ -z "$port" ]]; do
  if ! kill -0 "$daemon_pid" 2>/dev/null; then
    cat "$daemon_log"
    abort "vaultmail daemon exited before it served its web app (its log above)"
  fi
  [[ $SECONDS -lt $deadline ]] || { cat "$daemon_log"; abort "vaultmail daemon wrote no web-port within 60 s (its log above)"; }
  [[ -s "$port_file" ]] && port="$(tr -dc '0-9' < "$port_file")"
  [[ -n "$port" ]] || sleep 0.2
done
note "vaultmail daemon (pid $daemon_pid) serves on 127.0.0.1:$port"
if grep -q 'tracker shield on: .*(/usr/share/vaultmail/tracker-lists/assets/' "$daemon_log"; then
  pass "the daemon's tracker shield read the package's own lists: $(grep -o 'tracker shield on: [^(]*' "$daemon_log" | head -1)"
else
  failed "the daemon did not read the tracker lists from /usr/share/vaultmail/tracker-lists (its log: $(grep -i 'tracker' "$daemon_log" | head -2))"
fi

# One HTTP/1.1 request from inside the root, as the user (the app answers its own user only),
# over bash's /dev/tcp: the minimal root has no HTTP client.
cat > "$rootfs/usr/local/bin/http-request" <<'HTTP'
#!/bin/bash
# http-request PORT METHOD PATH [BODY [HEADER...]]: prints the response of 127.0.0.1:PORT.
set -euo pipefail
port="$1" method="$2" path="$3" body="${4:-}"
shift $(( $# < 4 ? $# : 4 ))
exec 3<>"/dev/tcp/127.0.0.1/$port"
{
  printf '%s %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nAccept: text/html\r\nConnection: close\r\n' "$method" "$path" "$port"
  for header in "$@"; do printf '%s\r\n' "$header"; done
  [[ -z "$body" ]] || printf 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n' "${#body}"
  printf '\r\n%s' "$body"
} >&3
cat <&3
HTTP
chmod 0755 "$rootfs/usr/local/bin/http-request"
status_of() { head -n 1 <<<"$1" | tr -d '\r' | cut -d' ' -f2; }

# Retried until the listener answers (it writes the port file as it starts listening).
deadline=$((SECONDS + 30))
until response="$("${as_user[@]}" timeout 10 http-request "$port" GET / 2>&1)" && [[ -n "$(status_of "$response")" ]]; do
  [[ $SECONDS -lt $deadline ]] || break
  sleep 0.2
done
if [[ "$(status_of "$response")" =~ ^(200|30[0-9]|401)$ ]] && grep -q 'VaultMail' <<<"$response"; then
  pass "GET http://127.0.0.1:$port/ from inside the root: HTTP $(status_of "$response"), VaultMail's page"
else
  failed "GET http://127.0.0.1:$port/ answered:"$'\n'"$(head -n 20 <<<"$response")"
fi

# Signed in as `vaultmail open` lets a browser: its one-time page, posted, gives the session cookie.
if page="$("${as_user[@]}" timeout 30 vaultmail open --no-browser 2>&1)" && [[ -f "$rootfs$page" ]]; then
  token="$(sed -n 's/.*name="token" value="\([^"]*\)".*/\1/p' "$rootfs$page")"
  encoded=""
  for ((i = 0; i < ${#token}; i++)); do
    c="${token:i:1}"
    case "$c" in [A-Za-z0-9._~-]) encoded+="$c" ;; *) encoded+="$(printf '%%%02X' "'$c")" ;; esac
  done
  response="$("${as_user[@]}" timeout 10 http-request "$port" POST /signin "token=$encoded&next=%2Fmail" 'Origin: null' 2>&1 || true)"
  cookie="$(grep -i '^set-cookie:' <<<"$response" | head -n 1 | sed 's/^[^:]*: *//; s/;.*//' | tr -d '\r')"
  if [[ -n "$cookie" ]]; then
    # /mail, following the app's redirects (with no account yet it sends a new user to /welcome).
    path=/mail visited=""
    for _ in 1 2 3 4; do
      visited+="$path "
      response="$("${as_user[@]}" timeout 10 http-request "$port" GET "$path" "" "Cookie: $cookie" 2>&1 || true)"
      [[ "$(status_of "$response")" =~ ^30[12378]$ ]] || break
      path="$(grep -i '^location:' <<<"$response" | head -n 1 | sed 's/^[^:]*: *//' | tr -d '\r')"
    done
    if [[ "$(status_of "$response")" == 200 ]] && grep -q '<title>' <<<"$response"; then
      pass "signed in with vaultmail open's one-time token; GET ${visited% }: HTTP 200, $(grep -o '<title>[^<]*</title>' <<<"$response" | head -n 1)"
    else
      failed "GET ${visited% } signed in answered:"$'\n'"$(head -n 20 <<<"$response")"
    fi
  else
    failed "POST /signin with vaultmail open's token set no cookie:"$'\n'"$(head -n 20 <<<"$response")"
  fi
else
  failed "vaultmail open --no-browser made no sign-in page: $page"
fi

# 5. The daemon stops on SIGTERM, as systemd stops it.
kill -TERM "$daemon_pid"
deadline=$((SECONDS + 15))
while kill -0 "$daemon_pid" 2>/dev/null && [[ $SECONDS -lt $deadline ]]; do sleep 0.1; done
if kill -0 "$daemon_pid" 2>/dev/null; then
  failed "vaultmail daemon was still running 15 s after SIGTERM"
else
  daemon_status=0
  wait "$daemon_pid" || daemon_status=$?
  daemon_pid=""
  if [[ "$daemon_status" -eq 0 ]]; then
    pass "vaultmail daemon stopped on SIGTERM (exit 0)"
  else
    failed "vaultmail daemon exited with $daemon_status on SIGTERM"
  fi
fi
if [[ $failures -gt 0 ]]; then
  echo "test-package: the daemon's log:"
  sed 's/^/    /' "$daemon_log"
fi
tests_seconds=$((SECONDS - phase))

note "times: debootstrap ${debootstrap_seconds} s, install ${install_seconds} s, checks ${tests_seconds} s, whole test $((SECONDS - started)) s"
if [[ $failures -gt 0 ]]; then
  echo "FAIL: $failures check(s) of the vaultmail $version package failed"
  exit 1
fi
echo "PASS: the vaultmail $version package installs into a clean Debian $suite root and runs there"
