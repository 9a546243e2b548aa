// author.html's script: the form's values become the preview element's attributes (the element checks
// them and names a bad one) and two snippets: <script> + <attention-lab ...>, and an iframe of
// embed.html with the listener that fits its height. author.json (web/build.mjs) gives the version
// and the SRI hash of attention-lab.js; embed-params.js the iframe's parameter names and length limit.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const FIELDS = ['section', 'words', 'inputs', 'seed', 'd-out', 'temperature', 'theme', 'lang'];
  const DEFAULTS = { section: 'all', theme: 'auto' };
  const { limit: PARAMETER_LIMIT } = self.AttentionLabEmbedParams;
  // Each section's height in embed.html at 800 px wide, light theme, the book's example (Chromium,
  // December 2026: all 26,854 px with every part laid out, step-by-step 6,461, batched 3,506, causal 4,703 ...), plus 100 px and rounded up to 100 px: the
  // iframe's height where a platform drops the resize listener. tests/browser/author.test.js measures
  // them again and fails when a section outgrows its number, or shrinks well below it.
  const HEIGHTS = { all: 23500, 'step-by-step': 5000, temperature: 2400, 'why-sqrt-dk': 1600, batched: 3600, classes: 2300, causal: 2200, 'multi-head': 3300, 'bug-hunt': 2400, check: 1200, train: 3700 };   // bug-hunt: its rounds measure 1,583–2,296 px (the round is drawn at random)
  let release = { version: '', integrity: '' };

  // HTML text: & " ' < > escaped, so words, JSON inputs and URLs paste safely into attributes.
  const htmlEscape = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const quote = (s) => (s.length > 80 ? `${s.slice(0, 80)}…` : s);

  // The attributes the author set, in a fixed order; empty fields and defaults are left out.
  function attributes() {
    const out = [];
    for (const name of FIELDS) {
      const value = $(name).value.trim();
      if (value !== '' && value !== DEFAULTS[name]) out.push([name, name === 'inputs' ? compactJson(value, ', ') : value]);
    }
    return out;
  }
  // Inputs as one line when they are valid JSON (the element reports them otherwise); the iframe's URL
  // takes them without spaces.
  function compactJson(text, comma) {
    try { return JSON.stringify(JSON.parse(text)).replace(/,/g, comma); } catch { return text; }
  }

  // The look: the accent colour (when chosen) and the font, as the element's CSS custom properties.
  // {props: [[name, value]], params: [[name, value]]} or {error}.
  function look() {
    const props = [], params = [];
    if ($('use-accent').checked) { props.push(['--attention-lab-accent', $('accent').value]); params.push(['accent', $('accent').value]); }
    const font = $('font').value.trim();
    if (font !== '') {
      if (!CSS.supports('font-family', font) || /[;{}<>]/.test(font)) return { error: `Font: “${quote(font)}” is not a CSS font family list; write e.g. Georgia, serif.` };
      props.push(['--attention-lab-font', font]);
      params.push(['font', font]);
    }
    return { props, params };
  }

  // The folder of the files: an absolute http(s) URL, without its query and #hash (a snippet adds file
  // names to it). {url, dropped} or {error}.
  function base() {
    const text = $('base').value.trim();
    if (text === '') return { url: new URL('.', location.href).href, dropped: '' };
    const bad = { error: `Files hosted at: “${quote(text)}” is not an http or https URL; write the folder's address, e.g. https://your.host/attention-lab/.` };
    if (!/^https?:\/\//i.test(text)) return bad;
    let url;
    try { url = new URL(text); } catch { return bad; }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return bad;
    if (url.username || url.password) return { error: 'Files hosted at: leave the user name and password out of the URL; the snippet would show them to every reader.' };
    const dropped = `${url.search}${url.hash}`;
    url.search = '';
    url.hash = '';
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    return { url: url.href, dropped };
  }

  function elementSnippet(attrs, folder, props) {
    const pin = $('sri').checked && release.integrity ? ` integrity="${htmlEscape(release.integrity)}" crossorigin="anonymous"` : '';
    const a = attrs.map(([k, v]) => ` ${k}="${htmlEscape(v)}"`).join('');
    // a style rule, not a style attribute: a page whose CSP has no 'unsafe-inline' can move it to its stylesheet
    const style = props.length ? `\n<style>attention-lab { ${props.map(([k, v]) => `${k}: ${v};`).join(' ')} }</style>` : '';
    return `<script src="${htmlEscape(folder)}attention-lab.js"${pin} defer></script>${style}\n<attention-lab${a}></attention-lab>`;
  }

  // The iframe's URL parameters: the attributes (inputs without spaces) and the look. {src, tooLong}.
  function iframeSource(attrs, folder, params) {
    const all = [...attrs.map(([k, v]) => [k, k === 'inputs' ? compactJson(v, ',') : v]), ...params];
    const tooLong = all.filter(([, v]) => v.length > PARAMETER_LIMIT).map(([k, v]) => `${k} (${v.length.toLocaleString('en')} characters)`);
    const query = new URLSearchParams(all).toString();
    return { src: `${folder}embed.html${query ? `?${query}` : ''}`, tooLong };
  }

  // The listener matches the message by the window that sent it (event.source), not by its origin: a
  // frame the LMS sandboxes (sandbox="allow-scripts", no allow-same-origin) posts from origin "null".
  function iframeSnippet(src, section) {
    return [
      `<iframe src="${htmlEscape(src)}" title="attention-lab: self-attention, computed live" style="width: 100%; height: ${HEIGHTS[section] || HEIGHTS.all}px; border: 0" loading="lazy"></iframe>`,
      '<script>',
      '// attention-lab\'s frame posts its content height; give it to the frame that sent it.',
      'window.addEventListener("message", function (e) {',
      '  if (!e.data || e.data.type !== "attention-lab:height") return;',
      '  document.querySelectorAll("iframe").forEach(function (f) { if (f.contentWindow === e.source) f.style.height = e.data.height + "px"; });',
      '});',
      '</script>',
    ].join('\n');
  }

  // A sentence under a field (or none).
  function say(id, text) {
    $(id).textContent = text || '';
    $(id).hidden = !text;
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
    const style = look();
    say('look-error', style.error);
    $('font').toggleAttribute('aria-invalid', !!style.error);
    for (const name of ['--attention-lab-accent', '--attention-lab-font']) {
      const v = (style.props || []).find(([k]) => k === name);
      if (v) preview.style.setProperty(name, v[1]); else preview.style.removeProperty(name);
    }
    const folder = base();
    $('base').toggleAttribute('aria-invalid', !!folder.error);
    $('base-note').classList.toggle('field-error', !!folder.error);
    $('base-note').textContent = folder.error || (folder.dropped ? `The snippets use ${folder.url}, without “${quote(folder.dropped)}”: they add the file names to the folder's URL.` : '');
    // no snippet from a value that is not what the author meant: the sentence says what to change
    const problem = folder.error || style.error;
    let warning = '';
    if (problem) {
      $('snippet-element').value = '';
      $('snippet-iframe').value = '';
    } else {
      $('snippet-element').value = elementSnippet([...attrs], folder.url, style.props);
      const { src, tooLong } = iframeSource([...attrs], folder.url, style.params);
      $('snippet-iframe').value = iframeSnippet(src, attrs.get('section') || 'all');
      if (tooLong.length) warning = `This iframe would not work: embed.html reads at most ${PARAMETER_LIMIT.toLocaleString('en')} characters per parameter, and ${tooLong.join(', ')} is longer. Use the script and element snippet for this example.`;
    }
    say('iframe-warning', warning);
    for (const kind of ['element', 'iframe']) $(`copy-${kind}`).disabled = !!problem || (kind === 'iframe' && !!warning);
  }
  let timer = 0;
  $('form').addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(apply, 250); });
  $('form').addEventListener('change', apply);
  $('form').addEventListener('submit', (e) => e.preventDefault());
  // choosing a colour turns the accent on
  $('accent').addEventListener('input', () => { $('use-accent').checked = true; });

  for (const kind of ['element', 'iframe']) {
    $(`copy-${kind}`).addEventListener('click', async () => {
      const text = $(`snippet-${kind}`).value;
      try { await navigator.clipboard.writeText(text); $(`copied-${kind}`).textContent = 'Copied.'; } catch {
        $(`snippet-${kind}`).select();
        $(`copied-${kind}`).textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
      }
    });
  }

  // "Download for LMS": a SCORM package of the chosen section, example and look, zipped here from this
  // folder's files (lms-files.json lists them; lms-package.js writes the manifest, the launch page and
  // the zip, deflated by the browser's CompressionStream where it has one).
  const lms = self.AttentionLabLmsPackage;
  async function downloadForLms() {
    say('lms-error', '');
    $('lms-status').textContent = '';
    const style = look();
    let mastery;
    try { mastery = lms.masteryOf($('lms-mastery').value); } catch (e) { say('lms-error', e.message); return; }
    if (style.error) { say('lms-error', style.error); return; }
    const kind = $('lms-kind').value;
    const attrs = attributes().filter(([name]) => name !== 'section');
    const section = $('section').value;
    const label = $('section').selectedOptions[0].textContent;
    $('lms-download').disabled = true;
    $('lms-status').textContent = 'Packing…';
    try {
      const listed = await fetch('lms-files.json');
      if (!listed.ok) throw new Error(`lms-files.json beside this page answered ${listed.status}: serve the whole release folder.`);
      const read = async (file) => {
        const r = await fetch(file);
        if (!r.ok) throw new Error(`${file} beside this page answered ${r.status}: serve the whole release folder.`);
        return new Uint8Array(await r.arrayBuffer());
      };
      const config = JSON.stringify([section, attrs, mastery, style.props, kind]);
      const entries = await lms.packageEntries({
        kind, identifier: `attention-lab-${section}-${lms.crc32(new TextEncoder().encode(config)).toString(16)}`,
        title: `attention-lab: ${label}`, attributes: [['section', section], ...attrs], masteryScore: mastery, look: style.props,
        files: await listed.json(), read,
      });
      const bytes = await lms.zip(entries, { deflateRaw: lms.browserDeflate, date: new Date() });
      const name = `attention-lab-${section}-${kind}.zip`;
      const url = URL.createObjectURL(new Blob([bytes], { type: 'application/zip' }));
      const a = document.createElement('a');
      a.href = url; a.download = name;
      document.body.append(a); a.click(); a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
      $('lms-status').textContent = `${name}: ${Math.round(bytes.length / 1024).toLocaleString('en')} KiB, ${entries.length} files. Upload it as a SCORM package.`;
    } catch (e) {
      $('lms-status').textContent = '';
      say('lms-error', `The package could not be made: ${e.message}`);
    } finally {
      $('lms-download').disabled = false;
    }
  }
  $('lms-download').addEventListener('click', downloadForLms);

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
