// The one home of attention-lab's LMS packages (SCORM 1.2 and SCORM 2004 4th edition): the launch
// page, the imsmanifest.xml and a small zip writer. author.js runs it in the browser ("Download for
// LMS"); scripts/lms_packages.mjs in Node, for ./scripts/build dist. The files a package carries are
// build/web/lms-files.json's (web/build.mjs lists them); web/lms.js is its SCORM runtime.
'use strict';
(() => {
  const xml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
  const LAUNCH = 'index.html';
  const KINDS = Object.freeze({ 'scorm12': '1.2', 'scorm2004': '2004' });

  // The launch page: the element with the author's attributes, attention-lab.js, then lms.js (which
  // reads data-scorm and data-mastery-score). No inline script: the CSP below holds, as in embed.html.
  // attributes: [[name, value]]; look: [[custom property, value]] (accent, font), written to look.css.
  function launchPage({ kind, title, attributes = [], masteryScore = null, look = [] }) {
    const attrs = attributes.map(([k, v]) => ` ${k}="${xml(v)}"`).join('');
    const mastery = masteryScore === null ? '' : ` data-mastery-score="${xml(masteryScore)}"`;
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="script-src 'self' 'wasm-unsafe-eval'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${xml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="page.css">${look.length ? '\n<link rel="stylesheet" href="look.css">' : ''}
<script src="attention-lab.js" defer></script>
<script src="lms.js" defer></script>
</head>
<body class="embed">
<attention-lab${attrs} data-scorm="${KINDS[kind]}"${mastery}></attention-lab>
</body>
</html>
`;
  }
  const lookSheet = (look) => `attention-lab { ${look.map(([k, v]) => `${k}: ${v};`).join(' ')} }\n`;

  // imsmanifest.xml: one organization, one item, one SCO resource listing every file. The mastery score
  // (a fraction, or null) goes where each version's LMS reads it: SCORM 1.2's adlcp:masteryscore
  // (0-100), SCORM 2004's primary objective satisfied by measure (minNormalizedMeasure, 0-1).
  function manifest({ kind, identifier, title, files, masteryScore = null }) {
    const list = files.map((f) => `      <file href="${xml(f)}"/>`).join('\n');
    const id = xml(identifier);
    if (kind === 'scorm12') {
      const mastery = masteryScore === null ? '' : `\n        <adlcp:masteryscore>${Math.round(masteryScore * 100)}</adlcp:masteryscore>`;
      return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${id}" version="1"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="${id}-org">
    <organization identifier="${id}-org">
      <title>${xml(title)}</title>
      <item identifier="${id}-item" identifierref="${id}-sco" isvisible="true">
        <title>${xml(title)}</title>${mastery}
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${id}-sco" type="webcontent" adlcp:scormtype="sco" href="${LAUNCH}">
${list}
    </resource>
  </resources>
</manifest>
`;
    }
    if (kind !== 'scorm2004') throw new Error(`attention-lab: no LMS package of kind "${kind}"; use scorm12 or scorm2004.`);
    const sequencing = masteryScore === null ? '' : `
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="${id}-questions" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${masteryScore}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>`;
    return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${id}" version="1"
  xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
  xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
  <organizations default="${id}-org">
    <organization identifier="${id}-org">
      <title>${xml(title)}</title>
      <item identifier="${id}-item" identifierref="${id}-sco">
        <title>${xml(title)}</title>${sequencing}
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="${id}-sco" type="webcontent" adlcp:scormType="sco" href="${LAUNCH}">
${list}
    </resource>
  </resources>
</manifest>
`;
  }

  // The mastery score as the author writes it: a percentage from 0 to 100, or empty for none. Returns
  // the fraction (0-1) or null; throws the sentence for anything else.
  function masteryOf(text) {
    const t = String(text ?? '').trim().replace(/%$/, '');
    if (t === '') return null;
    const n = Number(t);
    if (!Number.isFinite(n) || n < 0 || n > 100) throw new Error(`Mastery score: “${String(text).slice(0, 30)}” is not a percentage from 0 to 100 (or empty: no pass or fail, only completion).`);
    return Math.round(n * 100) / 10000;
  }

  // The package's files in zip order: imsmanifest.xml, the launch page (and look.css), then the static
  // files. read(path) -> Promise<Uint8Array> of a file of lms-files.json's list.
  async function packageEntries({ kind, identifier, title, attributes, masteryScore, look = [], files, read }) {
    const text = (s) => new TextEncoder().encode(s);
    const own = [[LAUNCH, text(launchPage({ kind, title, attributes, masteryScore, look }))], ...(look.length ? [['look.css', text(lookSheet(look))]] : [])];
    const all = [...own.map(([name]) => name), ...files];
    const entries = [['imsmanifest.xml', text(manifest({ kind, identifier, title, files: all, masteryScore }))], ...own];
    for (const f of files) entries.push([f, await read(f)]);
    return entries;
  }

  // CRC-32 (the zip's, IEEE 802.3)
  let table = null;
  function crc32(bytes) {
    if (!table) {
      table = new Uint32Array(256);
      for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; table[n] = c >>> 0; }
    }
    let c = 0xffffffff;
    for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  }

  // A zip (PKWARE APPNOTE: local headers, central directory, end record; UTF-8 names; no zip64, so
  // under 4 GiB) of entries [[name, bytes]]. deflateRaw(bytes) -> Promise<Uint8Array> compresses (a
  // file stays stored when that is not smaller); date: the files' modification time.
  async function zip(entries, { deflateRaw = null, date = new Date(2026, 0, 1) } = {}) {
    const dosTime = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
    const dosDate = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
    const parts = [], central = [];
    let offset = 0;
    for (const [name, data] of entries) {
      const nameBytes = new TextEncoder().encode(name);
      const crc = crc32(data);
      let body = data, method = 0;
      if (deflateRaw) {
        const packed = await deflateRaw(data);
        if (packed.length < data.length) { body = packed; method = 8; }
      }
      const head = new DataView(new ArrayBuffer(30));
      head.setUint32(0, 0x04034b50, true); head.setUint16(4, 20, true); head.setUint16(6, 0x0800, true);
      head.setUint16(8, method, true); head.setUint16(10, dosTime, true); head.setUint16(12, dosDate, true);
      head.setUint32(14, crc, true); head.setUint32(18, body.length, true); head.setUint32(22, data.length, true);
      head.setUint16(26, nameBytes.length, true); head.setUint16(28, 0, true);
      const dir = new DataView(new ArrayBuffer(46));
      dir.setUint32(0, 0x02014b50, true); dir.setUint16(4, 20, true); dir.setUint16(6, 20, true); dir.setUint16(8, 0x0800, true);
      dir.setUint16(10, method, true); dir.setUint16(12, dosTime, true); dir.setUint16(14, dosDate, true);
      dir.setUint32(16, crc, true); dir.setUint32(20, body.length, true); dir.setUint32(24, data.length, true);
      dir.setUint16(28, nameBytes.length, true); dir.setUint32(42, offset, true);
      parts.push(new Uint8Array(head.buffer), nameBytes, body);
      central.push(new Uint8Array(dir.buffer), nameBytes);
      offset += 30 + nameBytes.length + body.length;
    }
    const centralSize = central.reduce((n, p) => n + p.length, 0);
    const end = new DataView(new ArrayBuffer(22));
    end.setUint32(0, 0x06054b50, true); end.setUint16(8, entries.length, true); end.setUint16(10, entries.length, true);
    end.setUint32(12, centralSize, true); end.setUint32(16, offset, true);
    const all = [...parts, ...central, new Uint8Array(end.buffer)];
    const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of all) { out.set(p, at); at += p.length; }
    return out;
  }

  // The browser's deflate (CompressionStream 'deflate-raw'), or null where there is none (the zip is then stored).
  const browserDeflate = typeof CompressionStream === 'function' ? async (bytes) => {
    try {
      const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw'));
      return new Uint8Array(await new Response(stream).arrayBuffer());
    } catch { return bytes; }   // ('deflate-raw' unknown: stored)
  } : null;

  const api = Object.freeze({ KINDS, LAUNCH, launchPage, manifest, masteryOf, packageEntries, zip, crc32, browserDeflate });
  if (typeof module === 'object' && module.exports) module.exports = api;
  else self.AttentionLabLmsPackage = api;
})();
