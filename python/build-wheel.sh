#!/usr/bin/env bash
# Builds nestor's Python wheel and source distribution into DIR (default python/dist): one abi3
# wheel (CPython 3.9+) tagged manylinux2014 (glibc 2.17+), linked by zig from PyPI's `ziglang`
# (no container, no old system), and passed by maturin's own manylinux audit before it is
# written. Needs cargo and python3 with venv; maturin and ziglang go into a build venv.
#   python/build-wheel.sh [DIR]
# CARGO_TARGET_DIR is honoured (CI shares the main crate's); NESTOR_BUILD_VENV picks the venv.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(mkdir -p "${1:-$here/dist}" && cd "${1:-$here/dist}" && pwd)"
venv="${NESTOR_BUILD_VENV:-$here/.build-venv}"

# The versions this was last checked with: a newer zig may link differently.
maturin_req='maturin==1.16.0'
zig_req='ziglang==0.17.1'
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "$maturin_req" "$zig_req"

cd "$here"
# maturin finds zig through the ziglang package of the Python it runs under.
PATH="$venv/bin:$PATH" "$venv/bin/maturin" build --release --zig --compatibility manylinux2014 \
  --out "$out"
PATH="$venv/bin:$PATH" "$venv/bin/maturin" sdist --out "$out"
ls -l "$out"
