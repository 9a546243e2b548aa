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
NATIVE_PACKAGES=(cmake make g++ catch2 nlohmann-json3-dev libbenchmark-dev)
