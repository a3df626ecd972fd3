#!/usr/bin/env bash
# install-deltachat.sh: puts Delta Chat's JSON-RPC server and its Python client where the
# Delta Chat interoperability tests (issue 32, docs/crypto.md) look for them, .build/deltachat/:
# deltachat_rpc_server/deltachat-rpc-server and the deltachat_rpc_client package (2.65.0), and
# setup-message/deltachat-rpc-server (2.45.0, the last release that makes Autocrypt Setup
# Messages). All come from PyPI as wheels (MPL-2.0): the server is a static Linux binary, the
# client pure Python with no dependencies; they are unpacked, nothing is installed into Python.
# Does nothing when present.
set -euo pipefail
cd "$(dirname "$0")/.."
version=2.65.0
setup_version=2.45.0
target=.build/deltachat
stamp="$target/version"
[ -s "$stamp" ] && [ "$(cat "$stamp")" = "$version $setup_version" ] && [ -x "$target/deltachat_rpc_server/deltachat-rpc-server" ] \
  && [ -x "$target/setup-message/deltachat-rpc-server" ] && exit 0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/current" "$tmp/setup"
python3 -m pip download --quiet --no-deps --disable-pip-version-check -d "$tmp/current" \
  "deltachat-rpc-server==$version" "deltachat-rpc-client==$version"
python3 -m pip download --quiet --no-deps --disable-pip-version-check -d "$tmp/setup" "deltachat-rpc-server==$setup_version"
rm -rf "$target"
mkdir -p "$target/setup-message"
python3 - "$target" "$tmp"/current/*.whl <<'PY'
import os, sys, zipfile
target = sys.argv[1]
for wheel in sys.argv[2:]:
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if ".dist-info/" in info.filename:
                continue
            path = archive.extract(info, target)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                os.chmod(path, mode)
PY
python3 - "$target/setup-message/deltachat-rpc-server" "$tmp"/setup/*.whl <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[2]) as archive:
    data = archive.read("deltachat_rpc_server/deltachat-rpc-server")
with open(sys.argv[1], "wb") as out:
    out.write(data)
os.chmod(sys.argv[1], 0o755)
PY
echo "$version $setup_version" > "$stamp"
echo "Delta Chat $version (and $setup_version's server, for the Autocrypt Setup Message): unpacked in $target"
