#!/usr/bin/env bash
# Builds llama.cpp as static libraries for the CLlama system library target (issue 16):
# .build/llama/include/{llama.h,ggml*.h,gguf.h} and .build/llama/lib/lib{llama,ggml,ggml-cpu,ggml-base}.a.
#
# Debian 12 does not package llama.cpp. Its source comes from the llama-cpp-python source
# distribution on PyPI (pinned below), which vendors llama.cpp (MIT licence, copied beside the
# libraries). Built for this machine's processor (GGML_NATIVE), CPU only, without OpenMP (ggml's
# own thread pool) and without curl: VaultMail never lets the library reach the network.
# Cached: when .build/llama holds a build of the same version and options, it does nothing.
set -euo pipefail

version="0.3.36"   # llama-cpp-python; its vendor/llama.cpp is llama.cpp commit 0c1e570
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$root/.build/llama"
options=(
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON
  -DGGML_NATIVE=ON -DGGML_OPENMP=OFF -DGGML_BACKEND_DL=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF
  -DLLAMA_BUILD_COMMON=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF
  -DLLAMA_BUILD_SERVER=OFF
)
stamp_text="llama-cpp-python $version ${options[*]} $(uname -m) $(grep -m1 -o 'model name.*' /proc/cpuinfo || true)"

fail() {
  echo "build-llama.sh: $*" >&2
  exit 1
}

built() {
  [[ -f "$prefix/.built" && "$(cat "$prefix/.built")" == "$stamp_text" ]] \
    && for lib in llama ggml ggml-cpu ggml-base; do [[ -f "$prefix/lib/lib$lib.a" ]] || return 1; done
}

built && exit 0
mkdir -p "$root/.build"
# One build at a time (helpers and CI jobs may run `make deps` together).
exec 9>"$root/.build/.llama.lock"
flock 9
built && exit 0

command -v cmake >/dev/null || fail "cmake is missing: run scripts/install-deps.sh (it installs Debian's cmake)"
command -v c++ >/dev/null || fail "a C++ compiler is missing: run scripts/install-deps.sh (it installs g++)"
python3 -m pip --version >/dev/null 2>&1 || fail "python3 -m pip is missing: install python3-pip (scripts/install-deps.sh does)"

work="$(mktemp -d "$root/.build/.llama-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "build-llama.sh: fetching llama.cpp (llama-cpp-python $version source, 77 MB) from PyPI"
python3 -m pip download --quiet --no-deps --no-binary llama-cpp-python --dest "$work" "llama-cpp-python==$version" \
  || fail "pip could not download llama-cpp-python==$version's source from PyPI (is PyPI reachable from this machine?)"
archive="$work/llama_cpp_python-$version.tar.gz"
[[ -f "$archive" ]] || fail "pip downloaded no source archive for llama-cpp-python==$version"
tar -xzf "$archive" -C "$work" "llama_cpp_python-$version/vendor/llama.cpp"
source="$work/llama_cpp_python-$version/vendor/llama.cpp"

echo "build-llama.sh: building llama.cpp's static libraries (about 2 minutes on 2 cores)"
cmake -S "$source" -B "$work/build" "${options[@]}" > "$work/configure.log" 2>&1 \
  || { tail -n 30 "$work/configure.log" >&2; fail "cmake could not configure llama.cpp (log above)"; }
cmake --build "$work/build" --target llama --parallel "$(nproc)" > "$work/build.log" 2>&1 \
  || { tail -n 30 "$work/build.log" >&2; fail "llama.cpp did not build (log above)"; }

staged="$work/prefix"
mkdir -p "$staged/include" "$staged/lib"
cp "$source/include/llama.h" "$source"/ggml/include/*.h "$staged/include/"
for lib in llama ggml ggml-cpu ggml-base; do
  found="$(find "$work/build" -name "lib$lib.a" -print -quit)"
  [[ -n "$found" ]] || fail "the build made no lib$lib.a"
  cp "$found" "$staged/lib/"
done
cp "$source/LICENSE" "$staged/LICENSE.llama.cpp"
echo "$stamp_text" > "$staged/.built"
rm -rf "$prefix"
mv "$staged" "$prefix"
echo "build-llama.sh: llama.cpp (llama-cpp-python $version) built into ${prefix#"$root"/}"
