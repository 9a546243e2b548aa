// author.html's script: the form's values become the preview element's attributes (the element checks
// them and names a bad one) and two snippets: <script> + <attention-lab ...>, and an iframe of
// embed.html with the listener that fits its height. author.json (web/build.mjs) gives the version
// and the SRI hash of attention-lab.js.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const FIELDS = ['section', 'words', 'inputs', 'seed', 'd-out', 'temperature', 'theme'];
  const DEFAULTS = { section: 'all', theme: 'auto' };
  let release = { version: '', integrity: '' };

  // HTML attribute text: & " < > escaped, so words and JSON inputs paste safely.
  const attrEscape = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

  // The attributes the author set, in a fixed order; empty fields and defaults are left out.
  function attributes() {
    const out = [];
    for (const name of FIELDS) {
      const value = $(name).value.trim();
      if (value !== '' && value !== DEFAULTS[name]) out.push([name, name === 'inputs' ? compactJson(value) : value]);
    }
    return out;
  }
  // Inputs as one line when they are valid JSON (the element reports them otherwise).
  function compactJson(text) {
    try { return JSON.stringify(JSON.parse(text)).replace(/,/g, ', '); } catch { return text; }
  }

  function base() {
    const text = $('base').value.trim();
    let url;
    try { url = new URL(text || '.', location.href); } catch { url = new URL('.', location.href); }
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    return url.href;
  }

  function elementSnippet(attrs) {
    const pin = $('sri').checked && release.integrity ? ` integrity="${release.integrity}" crossorigin="anonymous"` : '';
    const a = attrs.map(([k, v]) => ` ${k}="${attrEscape(v)}"`).join('');
    return `<script src="${base()}attention-lab.js"${pin} defer></script>\n<attention-lab${a}></attention-lab>`;
  }

  function iframeSnippet(attrs) {
    const params = new URLSearchParams(attrs).toString();
    const src = `${base()}embed.html${params ? `?${params}` : ''}`;
    const origin = new URL(base()).origin;
    return [
      `<iframe src="${attrEscape(src)}" title="attention-lab: self-attention, computed live" style="width: 100%; height: 900px; border: 0" loading="lazy"></iframe>`,
      '<script>',
      '// attention-lab\'s frame posts its content height; give it to the frame that sent it.',
      'window.addEventListener("message", function (e) {',
      `  if (e.origin !== ${JSON.stringify(origin)} || !e.data || e.data.type !== "attention-lab:height") return;`,
      '  document.querySelectorAll("iframe").forEach(function (f) { if (f.contentWindow === e.source) f.style.height = e.data.height + "px"; });',
      '});',
      '</script>',
    ].join('\n');
  }

  // The preview: one element whose attributes follow the form (removed when a field is emptied).
  const preview = document.createElement('attention-lab');
  $('preview').append(preview);
  function apply() {
    const attrs = new Map(attributes());
    for (const name of FIELDS) {
      const v = attrs.get(name);
      if (v === undefined) { if (preview.hasAttribute(name)) preview.removeAttribute(name); } else if (preview.getAttribute(name) !== v) preview.setAttribute(name, v);
    }
    $('snippet-element').value = elementSnippet([...attrs]);
    $('snippet-iframe').value = iframeSnippet([...attrs]);
  }
  let timer = 0;
  $('form').addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(apply, 250); });
  $('form').addEventListener('change', apply);
  $('form').addEventListener('submit', (e) => e.preventDefault());

  for (const kind of ['element', 'iframe']) {
    $(`copy-${kind}`).addEventListener('click', async () => {
      const text = $(`snippet-${kind}`).value;
      try { await navigator.clipboard.writeText(text); $(`copied-${kind}`).textContent = 'Copied.'; } catch {
        $(`snippet-${kind}`).select();
        $(`copied-${kind}`).textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
      }
    });
  }

  // The release this folder is (author.json beside it): the default host is jsDelivr at that version.
  fetch('author.json').then((r) => (r.ok ? r.json() : null)).catch(() => null).then((info) => {
    if (info) release = info;
    if (!$('base').value) $('base').value = release.version ? `https://cdn.jsdelivr.net/npm/attention-lab@${release.version}/dist/web/` : new URL('.', location.href).href;
    $('release').textContent = release.version
      ? `attention-lab ${release.version}; attention-lab.js has SRI hash ${release.integrity}. The same files are in attention-lab-${release.version}.zip (any static host) and on npm.`
      : 'No author.json beside this page: the snippets carry no version pin.';
    apply();
  });
  apply();
})();
