# Shared by the scripts: install what is missing, once, from Debian's packages.
# Sourced, not run.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export DEBIAN_FRONTEND=noninteractive
export PUPPETEER_SKIP_DOWNLOAD=1   # puppeteer-core drives Debian's firefox-esr; never download a browser

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

# The browser suite's engines, all Debian's: chromium (playwright-core), firefox-esr (puppeteer-core
# over WebDriver BiDi) and WebKitGTK's MiniBrowser (libwebkit2gtk-4.1-0) under WebKitWebDriver
# (webkit2gtk-driver, selenium-webdriver) on an Xvfb display; fonts for the page's text; Mesa's GL
# drivers, which libwebkit2gtk-4.1-0 only recommends (ensure_packages skips recommends), for MiniBrowser on Xvfb.
# python3: tests/browser/host.test.js parses every code cell of the page with Python's own parser.
BROWSER_PACKAGES=(chromium firefox-esr webkit2gtk-driver libwebkit2gtk-4.1-0 libgl1-mesa-dri xvfb fonts-dejavu-core fonts-liberation python3)

# The oracle: Debian's PyTorch 1.13, with OpenBLAS as the libblas.so.3 alternative (the reference BLAS
# rounds matrix products differently). scripts/test regenerates the fixtures with it and replays the page's
# code cells through it (tests/browser/replay.test.js, scripts/replay_cells.py).
PYTORCH_PACKAGES=(python3-torch libopenblas0-pthread)

# Hosts the browser tests put the widget in (docs/notebooks.md, docs/python.md): notebooks.test.js and
# notebook.test.js execute notebooks with `jupyter nbconvert --execute` (python3-ipykernel is their kernel,
# with the oracle's torch; libjs-requirejs is the RequireJS that classic Notebook's HTML loads, which
# nbconvert only recommends), and dist.test.js builds an MkDocs site (`mkdocs build --strict`) holding the
# release's web/ folder.
HOST_PACKAGES=(jupyter-nbconvert python3-ipykernel python3-nbclient python3-notebook libjs-requirejs mkdocs)

# start_webkit_driver: Xvfb on a free display and WebKitWebDriver on a free port, both stopped when
# the calling script exits (even on failure). Exports ATTN_WEBKIT_DRIVER (the driver's URL), or, when
# either cannot start, ATTN_WEBKIT_DRIVER_ERROR: the WebKit checks then fail saying why.
ATTN_XVFB_PID="" ATTN_WEBKIT_DRIVER_PID=""
stop_webkit_driver() {
  # each was started by setsid: its process group holds it and the browsers it spawned
  [ -n "$ATTN_WEBKIT_DRIVER_PID" ] && kill -- -"$ATTN_WEBKIT_DRIVER_PID" 2>/dev/null
  [ -n "$ATTN_XVFB_PID" ] && kill -- -"$ATTN_XVFB_PID" 2>/dev/null
  ATTN_XVFB_PID="" ATTN_WEBKIT_DRIVER_PID=""
  return 0
}
start_webkit_driver() {
  local logs="$ROOT/build/webkit-driver" display="" port i
  unset ATTN_WEBKIT_DRIVER ATTN_WEBKIT_DRIVER_ERROR
  mkdir -p "$logs"
  trap stop_webkit_driver EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  # -displayfd: Xvfb picks a free display and writes its number once it accepts clients
  setsid Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$logs/display" 2>"$logs/xvfb.log" &
  ATTN_XVFB_PID=$!
  for i in $(seq 100); do
    display="$(cat "$logs/display" 2>/dev/null)"; [ -n "$display" ] && break
    kill -0 "$ATTN_XVFB_PID" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$display" ]; then
    export ATTN_WEBKIT_DRIVER_ERROR="Xvfb did not start; see $logs/xvfb.log"
    echo "error: $ATTN_WEBKIT_DRIVER_ERROR" >&2
    return 0
  fi
  port="$(node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })")"
  DISPLAY=":$display" NO_AT_BRIDGE=1 setsid WebKitWebDriver --host=127.0.0.1 --port="$port" >"$logs/driver.log" 2>&1 &
  ATTN_WEBKIT_DRIVER_PID=$!
  # ready when it answers /status
  if node -e "(async () => { for (let i = 0; i < 100; i++) { try { if ((await fetch('http://127.0.0.1:$port/status')).ok) return; } catch {} await new Promise((r) => setTimeout(r, 100)); } process.exit(1); })()"; then
    export ATTN_WEBKIT_DRIVER="http://127.0.0.1:$port"
    echo "WebKitWebDriver on $ATTN_WEBKIT_DRIVER, display :$display (logs in $logs)"
  else
    export ATTN_WEBKIT_DRIVER_ERROR="WebKitWebDriver did not answer on port $port; see $logs/driver.log"
    echo "error: $ATTN_WEBKIT_DRIVER_ERROR" >&2
  fi
}
