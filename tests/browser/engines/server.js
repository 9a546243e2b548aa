// The cross-engine suite's server: build/web as it is, plus the problems control page and an iframe
// host, and, for a driver that cannot hear the browser's console (WebKit), the recorder as the first
// script of every top-level page. A temporary copy of build/web holds the rewritten pages; build/web is not touched (a copy,
// not links: web/serve.mjs serves nothing whose real path lies outside its root).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { WEB, startServer } = require('../helpers');

const PAGE = path.join(__dirname, 'page');
const RECORDER = 'attention-lab-test-recorder.js';
const CONTROL = 'problems-control.html';
const IFRAME_HOST = 'iframe-host.html';   // one iframe: embed.html fitted to its posted heights, or ?src= at ?width=
const STRICT_CSP = 'strict-csp.html';     // the page and an iframe under the strict CSP of docs/embedding.md
const OTHER_ORIGIN = 'other-origin.html'; // engine-base on another origin (localhost), refused or ?allow-ed

// The strict CSP docs/embedding.md documents: the code block after its "strict-csp" marker, as one line.
function documentedCsp() {
  const readme = fs.readFileSync(path.join(__dirname, '../../../docs/embedding.md'), 'utf8');
  const m = /<!-- strict-csp[^>]*-->\s*```text\n([^`]+)```/.exec(readme);
  if (!m) throw new Error('docs/embedding.md has no strict-csp block (<!-- strict-csp … --> then ```text): the suite runs a page under that policy.');
  return m[1].trim().replace(/\s+/g, ' ');
}

// page's <head> with the recorder as its first child, when asked for.
function withRecorder(html, name) {
  if (!/<head>/i.test(html)) throw new Error(`${name} has no <head>: the suite puts its problem recorder there, so keep one.`);
  return html.replace(/<head>/i, `<head>\n<script src="${RECORDER}"></script>`);
}

async function startSuiteServer({ recorder }) {
  if (!fs.existsSync(path.join(WEB, 'index.html'))) throw new Error(`${WEB}/index.html is missing: run ./scripts/build web first.`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'attn-suite-web-'));
  for (const entry of fs.readdirSync(WEB)) {
    if (entry !== 'index.html') fs.cpSync(path.resolve(WEB, entry), path.join(root, entry), { recursive: true });
  }
  // the page and embed.html (opened directly by the questions check), each with the recorder when asked
  const pages = { 'index.html': fs.readFileSync(path.join(WEB, 'index.html'), 'utf8'), 'embed.html': fs.readFileSync(path.join(WEB, 'embed.html'), 'utf8') };
  for (const name of [CONTROL, IFRAME_HOST, STRICT_CSP, OTHER_ORIGIN]) pages[name] = fs.readFileSync(path.join(PAGE, name), 'utf8');
  pages[STRICT_CSP] = pages[STRICT_CSP].replace('{{STRICT_CSP}}', documentedCsp().replace(/"/g, '&quot;'));
  for (const [name, html] of Object.entries(pages)) fs.writeFileSync(path.join(root, name), recorder ? withRecorder(html, name) : html);
  for (const name of ['problems-control.js', 'iframe-host.js', 'other-origin.js', 'favicon.svg']) fs.copyFileSync(path.join(PAGE, name), path.join(root, name));
  if (recorder) fs.copyFileSync(path.join(PAGE, 'recorder.js'), path.join(root, RECORDER));
  const server = await startServer(root);
  return {
    url: server.url,
    controlUrl: `${server.url}${CONTROL}`,
    iframeHostUrl: `${server.url}${IFRAME_HOST}`,
    strictCspUrl: `${server.url}${STRICT_CSP}`,
    otherOriginUrl: `${server.url}${OTHER_ORIGIN}`,
    async close() { await server.close(); fs.rmSync(root, { recursive: true, force: true }); },
  };
}

module.exports = { startSuiteServer, documentedCsp };
