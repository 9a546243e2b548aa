// A tiny static server for build/web (scripts/run and the browser tests): correct MIME types for
// .wasm/.js, CORS so <attention-lab> works when embedded from another origin. It must survive any
// request a page can send: GET and HEAD only, nothing whose real path (after symlinks) is outside
// the root, and every error (a bad path, stat, the read) answered, never thrown.
// node web/serve.mjs [root] [port]   (port 0 = any free port; prints the URL). The release zip has it beside
// its web/ folder: there `node serve.mjs` serves that folder.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json', '.woff2': 'font/woff2',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8',
};

// Sent with every answer: no MIME sniffing, so a file is only ever what its extension says.
const COMMON = { 'X-Content-Type-Options': 'nosniff', 'Access-Control-Allow-Origin': '*' };

function fail(res, status, text) {
  if (res.headersSent) { res.destroy(); return; }
  res.writeHead(status, { ...COMMON, 'Content-Type': 'text/plain; charset=utf-8', ...(status === 405 ? { Allow: 'GET, HEAD' } : {}) });
  res.end(text);
}

// A path with a part that starts with a dot (.git, .env, .well-known): never served (issue 43).
const dotted = (parts) => parts.some((part) => part.startsWith('.'));

// The file a URL path names, or null when it names none: undecodable, a NUL, a dotfile, or outside the root.
function fileFor(base, url) {
  let pathname;
  try { pathname = decodeURIComponent(new URL(url, 'http://x').pathname); } catch { return { status: 400 }; }
  if (pathname.includes('\0')) return { status: 400 };
  if (dotted(pathname.split(/[\\/]/))) return { status: 404 };
  let file = path.join(base, pathname);
  if (file !== base && !file.startsWith(base + path.sep)) return { status: 403 };
  if (pathname.endsWith('/')) file = path.join(file, 'index.html');
  return { file };
}

// A file's validators, as a static host sends them: a browser keeps the file and asks each time whether
// it changed (no-cache), and an unchanged one costs a 304, no body; its compiled code (V8's code cache,
// kept with the HTTP cache's entry) is used again. Without them every visit downloaded and compiled all.
const etagOf = (st) => `"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;   // weak: W/ before it
const modifiedMs = (st) => Math.floor(st.mtimeMs / 1000) * 1000;   // HTTP dates are whole seconds
function validators(st) {
  return { ...COMMON, 'Cache-Control': 'no-cache', ETag: `W/${etagOf(st)}`, 'Last-Modified': new Date(modifiedMs(st)).toUTCString() };
}
// Whether a conditional request names the file as it is (If-None-Match wins over If-Modified-Since).
function unchanged(req, st) {
  const tags = req.headers['if-none-match'];
  if (tags !== undefined) return tags.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etagOf(st));
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && modifiedMs(st) <= since;
}

// options.createReadStream replaces fs.createReadStream (the tests make it fail mid-answer).
export function serve(root, port = 0, host = '127.0.0.1', options = {}) {
  const base = path.resolve(root);
  const realBase = fs.realpathSync(base);
  const createReadStream = options.createReadStream || fs.createReadStream;

  function answer(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') { fail(res, 405, 'only GET and HEAD'); return; }
    const { file, status } = fileFor(base, req.url);
    if (!file) { fail(res, status, status === 400 ? 'bad request' : status === 404 ? 'not found' : 'forbidden'); return; }
    // the real path, symlinks resolved, must still be inside the root's real path
    fs.realpath(file, (err, real) => {
      if (err) { fail(res, 404, 'not found'); return; }
      if (real !== realBase && !real.startsWith(realBase + path.sep)) { fail(res, 404, 'not found'); return; }
      if (dotted(path.relative(realBase, real).split(path.sep))) { fail(res, 404, 'not found'); return; }   // a link to one
      fs.stat(real, (err2, st) => {
        if (err2 || !st.isFile()) { fail(res, 404, 'not found'); return; }
        if (unchanged(req, st)) { res.writeHead(304, validators(st)).end(); return; }
        if (req.method === 'HEAD') {
          res.writeHead(200, headers(real, st)).end();
          return;
        }
        const stream = createReadStream(real);
        stream.on('error', () => fail(res, 500, 'could not read the file'));
        stream.once('open', () => res.writeHead(200, headers(real, st)));
        stream.pipe(res);
      });
    });
  }

  function headers(file, st) {
    return { ...validators(st), 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Content-Length': st.size };
  }

  const server = http.createServer((req, res) => {
    try { answer(req, res); } catch { fail(res, 500, 'internal error'); }
  });
  // a request Node's parser refuses (a raw NUL, a malformed line) gets a 400, not a dropped process
  server.on('clientError', (err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const beside = new URL('./web/', import.meta.url);   // the release zip's layout
  const root = process.argv[2] || (fs.existsSync(beside) ? fileURLToPath(beside) : 'build/web');
  const port = Number(process.argv[3] ?? process.env.PORT ?? 8000);
  const server = await serve(root, port, process.env.HOST || '127.0.0.1');
  console.log(`attention-lab: http://localhost:${server.address().port}/  (serving ${root}; Ctrl-C stops)`);
}
