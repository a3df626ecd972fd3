#!/usr/bin/env bash
# install-axe.sh: puts axe-core 4.x (axe.min.js) where the web app's browser tests look for it,
# .build/axe/axe.min.js. It ships inside PyPI's axe-playwright-python 0.1.8 (axe-core 4.12,
# MPL-2.0); only that file is taken, nothing is installed into Python. Does nothing when present.
set -euo pipefail
cd "$(dirname "$0")/.."
target=.build/axe/axe.min.js
[ -s "$target" ] && exit 0
mkdir -p .build/axe
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-deps --disable-pip-version-check -d "$tmp" axe-playwright-python==0.1.8
python3 - "$tmp"/axe_playwright_python-0.1.8-*.whl "$target" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel:
    data = wheel.read("axe_playwright_python/axe.min.js")
open(sys.argv[2], "wb").write(data)
PY
echo "axe-core: $(head -c 120 "$target" | grep -o 'axe v[0-9.]*' || echo present) in $target"
