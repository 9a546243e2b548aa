// web/serve.mjs under hostile requests: each gets its status, and the server still answers after it.
// Raw sockets send what fetch() would refuse to (a NUL, a bad %-encoding, odd methods).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { serve } from '../../web/serve.mjs';

let tmp, root, server, port;
let failReads = false;

before(async () => {
  // root/ holds index.html, app.js, a link inside the root, and links to a folder and a file outside it
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-serve-'));
  root = path.join(tmp, 'root');
  const outside = path.join(tmp, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(root, 'index.html'), '<p>home</p>');
  fs.writeFileSync(path.join(root, 'app.js'), 'var x = 1;');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  fs.symlinkSync(outside, path.join(root, 'out'));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'secret.txt'));
  fs.symlinkSync(path.join(root, 'app.js'), path.join(root, 'inside.js'));
  // dotfiles: a secret, a .git folder, and a plain name linking to the secret
  fs.writeFileSync(path.join(root, '.env'), 'TOKEN=1');
  fs.mkdirSync(path.join(root, '.git'));
  fs.writeFileSync(path.join(root, '.git', 'config'), '[core]');
  fs.symlinkSync(path.join(root, '.env'), path.join(root, 'env.txt'));
  // a read stream that fails after the file was found, when a test asks for it
  const createReadStream = (file) => {
    if (!failReads) return fs.createReadStream(file);
    return new Readable({ read() { this.destroy(new Error('EIO: i/o error, read')); } });
  };
  server = await serve(root, 0, '127.0.0.1', { createReadStream });
  port = server.address().port;
});

after(() => {
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

// One raw HTTP/1.1 request: its status code and header block (0 when the connection closed without one).
function raw(requestLine, extraHeaders = '') {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    socket.on('data', (d) => { data = Buffer.concat([data, d]); });
    socket.on('error', reject);
    socket.on('close', () => {
      const text = data.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, head: text.split('\r\n\r\n')[0], body: text.split('\r\n\r\n').slice(1).join('\r\n\r\n') });
    });
    // write, not end: Node's server drops a half-closed connection before an asynchronous answer
    socket.write(Buffer.from(`${requestLine}\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extraHeaders}\r\n`, 'latin1'));
  });
}

async function stillServes() {
  const r = await raw('GET / HTTP/1.1');
  assert.equal(r.status, 200);
  assert.equal(r.body, '<p>home</p>');
}

test('a NUL in the path, %-encoded or raw, is a 400 and the server keeps answering', async () => {
  for (const line of ['GET /%00 HTTP/1.1', 'GET /index.html%00.png HTTP/1.1', 'GET /a%00b/ HTTP/1.1', 'HEAD /%00 HTTP/1.1']) {
    assert.equal((await raw(line)).status, 400, line);
    await stillServes();
  }
  assert.equal((await raw('GET /\0 HTTP/1.1')).status, 400);
  await stillServes();
});

test('bad %-encodings are a 400', async () => {
  for (const p of ['/%', '/%E0%A4%A', '/%FF', '/%C0%AE%C0%AE/', '/%uD800']) {
    assert.equal((await raw(`GET ${p} HTTP/1.1`)).status, 400, p);
  }
  await stillServes();
});

test('only GET and HEAD are answered; other methods get 405 with Allow', async () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'TRACE', 'PROPFIND', 'OPTIONS', 'PATCH']) {
    const r = await raw(`${method} /index.html HTTP/1.1`, 'Content-Length: 0\r\n');
    assert.equal(r.status, 405, method);
    assert.match(r.head, /\r\nAllow: GET, HEAD/i);
    assert.doesNotMatch(r.body, /home/);
  }
  const head = await raw('HEAD /index.html HTTP/1.1');
  assert.equal(head.status, 200);
  assert.match(head.head, /Content-Length: 11/i);
  assert.equal(head.body, '');
  await stillServes();
});

test('every answer says X-Content-Type-Options: nosniff', async () => {
  for (const line of ['GET / HTTP/1.1', 'GET /app.js HTTP/1.1', 'GET /missing HTTP/1.1', 'GET /%00 HTTP/1.1', 'POST / HTTP/1.1']) {
    assert.match((await raw(line, 'Content-Length: 0\r\n')).head, /\r\nX-Content-Type-Options: nosniff/i, line);
  }
});

test('a symlink inside the root that points outside it is not followed', async () => {
  assert.equal((await raw('GET /out/secret.txt HTTP/1.1')).status, 404);
  assert.equal((await raw('GET /secret.txt HTTP/1.1')).status, 404);
  assert.equal((await raw('GET /../outside/secret.txt HTTP/1.1')).status, 404);
  assert.equal((await raw('GET /%2e%2e/outside/secret.txt HTTP/1.1')).status, 404);  // the URL parser resolves %2e%2e
  const inside = await raw('GET /inside.js HTTP/1.1');
  assert.equal(inside.status, 200);
  assert.equal(inside.body, 'var x = 1;');
  await stillServes();
});

test('a read that fails is answered with 500 and the server keeps answering', async () => {
  failReads = true;
  try {
    assert.equal((await raw('GET /app.js HTTP/1.1')).status, 500);
  } finally {
    failReads = false;
  }
  await stillServes();
});

test('dotfiles and dot folders are not served, nor a link to one (issue 43)', async () => {
  for (const p of ['/.env', '/.git/config', '/%2eenv', '/.git/', '/env.txt', '/x/../.env']) {
    const r = await raw(`GET ${p} HTTP/1.1`);
    assert.equal(r.status, 404, p);
    assert.doesNotMatch(r.body, /TOKEN|core/, p);
  }
  assert.equal((await raw('GET /app.js HTTP/1.1')).status, 200);
  await stillServes();
});

test('a file carries validators; asked again unchanged it is a 304 with no body, changed a 200 with the new bytes', async () => {
  const first = await raw('GET /app.js HTTP/1.1');
  assert.equal(first.status, 200);
  const etag = /\r\nETag: (.*)/i.exec(first.head)?.[1];
  const modified = /\r\nLast-Modified: (.*)/i.exec(first.head)?.[1];
  assert.match(etag, /^W\/"[0-9a-f]+-[0-9a-f]+"$/);
  assert.ok(Number.isFinite(Date.parse(modified)), modified);
  assert.match(first.head, /\r\nCache-Control: no-cache/i);
  for (const condition of [`If-None-Match: ${etag}`, `If-None-Match: "x", ${etag.slice(2)}`, `If-Modified-Since: ${modified}`]) {
    const again = await raw('GET /app.js HTTP/1.1', `${condition}\r\n`);
    assert.equal(again.status, 304, condition);
    assert.equal(again.body, '', condition);
    assert.match(again.head, new RegExp(`\\r\\nETag: ${etag.replace(/[/"]/g, '\\$&')}`, 'i'));
  }
  assert.equal((await raw('GET /app.js HTTP/1.1', 'If-None-Match: W/"0-0"\r\n')).status, 200, 'another tag');
  assert.equal((await raw('GET /app.js HTTP/1.1', `If-None-Match: W/"0-0"\r\nIf-Modified-Since: ${modified}\r\n`)).status, 200, 'If-None-Match wins');
  assert.equal((await raw('GET /app.js HTTP/1.1', 'If-Modified-Since: not a date\r\n')).status, 200);
  // the file changes (another size, a later time): the old tag and date get the new bytes
  const file = path.join(root, 'app.js');
  fs.writeFileSync(file, 'var x = 22;');
  const later = new Date(Date.parse(modified) + 5000);
  fs.utimesSync(file, later, later);
  try {
    const changed = await raw('GET /app.js HTTP/1.1', `If-None-Match: ${etag}\r\n`);
    assert.equal(changed.status, 200);
    assert.equal(changed.body, 'var x = 22;');
    assert.equal((await raw('GET /app.js HTTP/1.1', `If-Modified-Since: ${modified}\r\n`)).status, 200);
  } finally {
    fs.writeFileSync(file, 'var x = 1;');
  }
});
