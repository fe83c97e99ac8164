#!/usr/bin/env bash
# Builds the page into web/dist/ (index.html, the .wasm, the JS glue: static files, nothing
# fetched from another origin). Installs what it needs when missing: the wasm32 target and
# wasm-bindgen-cli at the version web/Cargo.lock pins. Usage: web/build.sh
set -euo pipefail
cd "$(dirname "$0")"
target_dir=${CARGO_TARGET_DIR:-$PWD/target}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  rustup target add wasm32-unknown-unknown
fi
# The glue must come from the same wasm-bindgen as the crate was built with.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$version" ]; then
  echo "web/build.sh: no wasm-bindgen version in web/Cargo.lock" >&2
  exit 1
fi
if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $version" ]; then
  # The CLI's own lock file first; a registry that lacks one of its pinned crates gets the
  # same CLI version with its dependencies resolved afresh. No default features: they are
  # the TLS stack its test runner downloads browser drivers with, which this page never uses.
  cargo install --locked --no-default-features wasm-bindgen-cli --version "$version" \
    || { echo "web/build.sh: installing wasm-bindgen-cli $version without its lock file"; \
         cargo install --no-default-features wasm-bindgen-cli --version "$version"; }
fi

cargo build --release --locked --target wasm32-unknown-unknown
out=$(mktemp -d dist.XXXXXX)
trap 'rm -rf "$out"' EXIT
wasm-bindgen --target web --no-typescript --out-dir "$out" \
  "$target_dir/wasm32-unknown-unknown/release/nestor_web.wasm"
cp static/* "$out/"
chmod 755 "$out"
rm -rf dist
mv "$out" dist
trap - EXIT
echo "web/build.sh: built $(cd dist && ls | tr '\n' ' ')in web/dist"
