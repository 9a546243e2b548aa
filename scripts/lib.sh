# Shared by the scripts: install what is missing, once, from Debian's packages.
# Sourced, not run.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export DEBIAN_FRONTEND=noninteractive

# ensure_packages PKG...: apt-get install the packages that are not installed yet.
ensure_packages() {
  local missing=()
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: need root to apt-get install ${missing[*]}" >&2
    return 1
  fi
  if [ -z "${ATTN_APT_UPDATED:-}" ]; then
    apt-get update -qq >&2
    export ATTN_APT_UPDATED=1
  fi
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# The native toolchain and libraries the engine, CLI and tests build with.
NATIVE_PACKAGES=(cmake make g++ catch2 nlohmann-json3-dev)

# The WebAssembly toolchain: Debian's emscripten (3.1.6), node-acorn for its JS optimizer, node to
# run the engines and their tests, and the header-only libraries the engine and the suite include.
WASM_PACKAGES=(emscripten node-acorn nodejs cmake make catch2 nlohmann-json3-dev)

# emscripten_env: the environment em++ needs here. Debian's config freezes the system cache
# (/usr/share/emscripten/cache), which has every library variant we link; build/emcache mirrors it
# with symlinks and is unfrozen, so a missing variant is built there and /usr is never written.
emscripten_env() {
  export NODE_PATH=/usr/share/nodejs
  export EM_CACHE="$ROOT/build/emcache"
  export EM_FROZEN_CACHE=""  # empty = false; "0" would read as true
  if [ ! -e "$EM_CACHE/.mirrored" ]; then
    rm -rf "$EM_CACHE"
    mkdir -p "$EM_CACHE"
    cp -as /usr/share/emscripten/cache/. "$EM_CACHE/"
    rm -f "$EM_CACHE/cache.lock"  # a real lock file here, not a link that writes into /usr
    touch "$EM_CACHE/.mirrored"
  fi
}
