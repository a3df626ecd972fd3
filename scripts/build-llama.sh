#!/usr/bin/env bash
# Builds llama.cpp as shared libraries for the CLlama system library target (issues 16, 27):
#   .build/llama/include/{llama.h,ggml*.h,gguf.h}
#   .build/llama/lib/lib{llama,ggml,ggml-base}.so* and libggml-cpu-<variant>.so, one per CPU family.
#
# Debian 12 does not package llama.cpp. Its source comes from the llama-cpp-python source
# distribution on PyPI (pinned below), which vendors llama.cpp (MIT licence, copied beside the
# libraries). CPU only, without OpenMP (ggml's own thread pool) and without curl: VaultMail never
# lets the library reach the network.
#
# Portable (issue 27): never built for the building machine's processor (no GGML_NATIVE, no
# -march=native). ggml's CPU code is built once per x86-64 family as a loadable module
# (GGML_BACKEND_DL with GGML_CPU_ALL_VARIANTS), and VaultMailAI loads at run time the best one
# that this processor and its kernel can run (Sources/VaultMailAI/Generation/LlamaCPUBackend.swift,
# docs/ai.md). Of ggml's fourteen x86-64 variants nine are built, one per step that matters:
#   x64 (any x86-64) · sse42 (x86-64-v2) · sandybridge (AVX) · haswell (AVX2, FMA: x86-64-v3)
#   skylakex (AVX-512: x86-64-v4) · icelake (+VBMI, VNNI) · zen4 (+BF16) · alderlake (AVX-VNNI)
#   sapphirerapids (AMX)
# The five left out (ivybridge, piledriver, cannonlake, cascadelake, cooperlake) each add one
# extension to a variant above, which such a processor then runs: 5 fewer builds of ggml's CPU
# code, a third of this script's time.
# Cached: when .build/llama holds a build of the same version and options, it does nothing.
set -euo pipefail

version="0.3.36"   # llama-cpp-python; its vendor/llama.cpp is llama.cpp commit 0c1e570
root="$(cd "$(dirname "$0")/.." && pwd)"
prefix="$root/.build/llama"
left_out=(ivybridge piledriver cannonlake cascadelake cooperlake)
options=(
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DCMAKE_BUILD_RPATH_USE_ORIGIN=ON
  -DGGML_NATIVE=OFF -DGGML_BACKEND_DL=ON -DGGML_CPU_ALL_VARIANTS=ON
  -DGGML_OPENMP=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF
  -DLLAMA_BUILD_COMMON=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF
  -DLLAMA_BUILD_SERVER=OFF
)
# No processor in the stamp: what is built does not depend on the machine that builds it.
stamp_text="llama-cpp-python $version ${options[*]} without ${left_out[*]} $(uname -m)"

fail() {
  echo "build-llama.sh: $*" >&2
  exit 1
}

built() {
  [[ -f "$prefix/.built" && "$(cat "$prefix/.built")" == "$stamp_text" ]] \
    && for lib in llama ggml ggml-base ggml-cpu-x64; do [[ -f "$prefix/lib/lib$lib.so" ]] || return 1; done
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

variants_list="$source/ggml/src/CMakeLists.txt"
for variant in "${left_out[@]}"; do
  grep -q "ggml_add_cpu_backend_variant($variant " "$variants_list" \
    || fail "llama.cpp's $variants_list no longer lists the CPU variant $variant: update left_out in this script"
  sed -i "/ggml_add_cpu_backend_variant($variant /d" "$variants_list"
done

echo "build-llama.sh: building llama.cpp's shared libraries and its CPU variants (about 10 minutes on 2 cores)"
cmake -S "$source" -B "$work/build" "${options[@]}" > "$work/configure.log" 2>&1 \
  || { tail -n 30 "$work/configure.log" >&2; fail "cmake could not configure llama.cpp (log above)"; }
cmake --build "$work/build" --target llama --parallel "$(nproc)" > "$work/build.log" 2>&1 \
  || { tail -n 30 "$work/build.log" >&2; fail "llama.cpp did not build (log above)"; }

staged="$work/prefix"
mkdir -p "$staged/include" "$staged/lib"
cp "$source/include/llama.h" "$source"/ggml/include/*.h "$staged/include/"
# The libraries with their soname links (-P keeps the links), each finding the others beside it ($ORIGIN).
cp -P "$work"/build/bin/lib*.so* "$staged/lib/"
for lib in llama ggml ggml-base ggml-cpu-x64; do
  [[ -f "$staged/lib/lib$lib.so" ]] || fail "the build made no lib$lib.so"
done
if grep -q 'RUNPATH.*\[/' <(for f in "$staged"/lib/*.so; do readelf -d "$f"; done); then
  fail "a library carries an absolute RUNPATH into the build folder; expected \$ORIGIN"
fi
cp "$source/LICENSE" "$staged/LICENSE.llama.cpp"
echo "$stamp_text" > "$staged/.built"
rm -rf "$prefix"
mv "$staged" "$prefix"
echo "build-llama.sh: llama.cpp (llama-cpp-python $version) built into ${prefix#"$root"/}: $(ls "$prefix"/lib/libggml-cpu-*.so | sed 's/.*libggml-cpu-//; s/\.so$//' | tr '\n' ' ')"
