#!/usr/bin/env bash
# Installs every dependency (Debian packages, PyPI for Python packages),
# builds with the CMake presets and installs the tools on PATH.
# Idempotent: what is already there is not installed again, builds are
# incremental.
#
#   scripts/setup.sh            release build, installed to /usr/local
#   scripts/setup.sh --asan     also the ASan+UBSan build
#   scripts/setup.sh --fuzz     also the libFuzzer build (clang)
set -euo pipefail
cd "$(dirname "$0")/.."

want_asan=0
want_fuzz=0
for arg in "$@"; do
  case "$arg" in
    --asan) want_asan=1 ;;
    --fuzz) want_fuzz=1 ;;
    *) echo "setup.sh: unknown option '$arg' (use --asan or --fuzz)" >&2; exit 2 ;;
  esac
done

debian_packages=(
  cmake ninja-build g++ clang clang-format pkg-config
  flatbuffers-compiler libflatbuffers-dev
  libzstd-dev zstd libxxhash-dev libcli11-dev doctest-dev
  ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers pocl-opencl-icd clinfo
  libclblast-dev libclang-rt-14-dev nlohmann-json3-dev
  python3 python3-pip chromium
  valgrind  # --metrics-backend sim: callgrind and its client-request header
)

missing=()
for p in "${debian_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# python3 on PATH must run pyopencl programs.
if ! python3 -c "import pyopencl, numpy, mako" 2>/dev/null; then
  echo "setup: installing pyopencl and numpy for $(command -v python3)"
  python3 -m pip install -q pyopencl numpy mako nvtx 2>/dev/null ||
    { apt-get install -y -qq python3-pyopencl python3-numpy python3-mako >/dev/null; }
fi
python3 -c "import nvtx" 2>/dev/null || python3 -m pip install -q nvtx 2>/dev/null || true
# tinygrad, a framework that loads its programs from binaries it compiled
# (examples/tinygrad_mlp.py); pinned, so its kernels are the tests' kernels.
python3 -c "import importlib.metadata as m, sys; sys.exit(m.version('tinygrad') != '0.14.0')" 2>/dev/null ||
  python3 -m pip install -q "tinygrad==0.14.0" 2>/dev/null ||
  python3 -m pip install -q --break-system-packages "tinygrad==0.14.0"
# pyopencl's own test suite (scripts/pyopencl_suite.py): pytest, and the
# test/ folder of the installed pyopencl's source distribution from PyPI
# (pip reads its metadata with scikit-build-core, its build backend).
pip_install() {
  python3 -m pip install -q "$@" 2>/dev/null || python3 -m pip install -q --break-system-packages "$@"
}
python3 -c "import pytest" 2>/dev/null || pip_install pytest
# summary.json checked against schemas/summary.schema.json (the analyzer's
# and the e2e tests, schemas/check_summary.py).
python3 -c "import jsonschema" 2>/dev/null || pip_install jsonschema
# CLBlast's Python binding, built against libclblast-dev and the system's
# libOpenCL.so.1: a library on a second loader (examples/pyclblast_gemm.py).
python3 -c "import pyclblast" 2>/dev/null || pip_install pyclblast
pyopencl_version=$(python3 -c "import importlib.metadata as m; print(m.version('pyopencl'))")
suite=build/pyopencl-suite
if [ ! -f "$suite/pyopencl-$pyopencl_version/test/test_wrapper.py" ]; then
  echo "setup: fetching pyopencl $pyopencl_version's test suite"
  python3 -c "import scikit_build_core" 2>/dev/null || pip_install scikit-build-core
  mkdir -p "$suite"
  python3 -m pip download -q --no-deps --no-binary :all: --no-build-isolation \
    "pyopencl==$pyopencl_version" -d "$suite"
  tar xzf "$suite/pyopencl-$pyopencl_version.tar.gz" -C "$suite"
fi

build() {
  local preset=$1
  [ -f "build/$preset/build.ninja" ] || cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset"
}

build release
cmake --install build/release --prefix /usr/local >/dev/null
# The system loader finds the mstx client library in /usr/local/lib.
ldconfig 2>/dev/null || true

# The mstx module in python3's own site-packages, as a wheel: an annotated
# program then runs with or without msprof-record (without it, every call
# is a no-op), as with the vendor's module.
# Built from a copy: setuptools leaves build/ and egg-info where it builds.
export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1
wheel_dir=$PWD/build/wheels
wheel_src=$(mktemp -d)
trap 'rm -rf "$wheel_src"' EXIT
cp -r recorder/python/. "$wheel_src"
rm -rf "$wheel_dir"
python3 -m pip wheel -q --no-deps -w "$wheel_dir" "$wheel_src" >/dev/null
wheel=$(ls "$wheel_dir"/msprof_mstx-*.whl)
python3 -m pip install -q --no-deps --force-reinstall "$wheel" 2>/dev/null ||
  python3 -m pip install -q --no-deps --force-reinstall --break-system-packages "$wheel"
((want_asan)) && build asan
((want_fuzz)) && build fuzz
echo "setup: done; msprof-record, msprof-replay and msprof-analyze are in /usr/local/bin"
