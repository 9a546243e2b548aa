// The texts an export writes (no DOM: tests/node runs them): CSV, the PyTorch literal, and a drawn
// scene as SVG. Numbers are the engine's texts (its shortest round-trip float32 decimals), never the
// rounded digits in the cells, so a tensor rebuilt from them is the engine's, bit for bit.

// numbers: {shape: [n] or [rows, cols], texts: the engine's texts, row-major, rowLabels?, colLabels?, rowName?, colName?}

// RFC 4180: a field with a comma, quote or line break is quoted. A label a spreadsheet would read as a
// formula (=, +, -, @ first: a learner's word) gets a leading apostrophe; numbers are written as they are.
const field = (text) => {
  let t = String(text);
  if (/^[=+\-@\t\r]/.test(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
};
export function csvText({ shape, texts, rowLabels, colLabels, rowName = 'row', colName = 'column' }) {
  const [rows, cols] = shape.length === 1 ? [1, shape[0]] : shape;
  const lines = [[`${rowName} \\ ${colName}`, ...Array.from({ length: cols }, (_, j) => colLabels?.[j] ?? String(j + 1))].map(field).join(',')];
  for (let i = 0; i < rows; i++) lines.push([field(rowLabels?.[i] ?? String(i + 1)), ...texts.slice(i * cols, (i + 1) * cols).map(String)].join(','));
  return `${lines.join('\r\n')}\r\n`;
}

// One value as a Python float literal: an integer text gets its point ("1." as PyTorch writes it), so the
// tensor is float32 like the page's; nan and the infinities as float('...').
export function pythonFloat(text) {
  const t = String(text).trim();
  if (/^[+-]?(nan|inf)$/i.test(t)) return `float('${t.toLowerCase()}')`;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) throw new Error(`"${t.slice(0, 20)}" is not a number`);
  return /^[+-]?\d+$/.test(t) ? `${t}.` : t;
}
// torch.tensor([...]): printed by PyTorch, it prints what the page prints for this tensor (its values,
// digits and layout; a print's grad_fn or requires_grad is the module's, not the values').
export function torchLiteral({ shape, texts }) {
  const values = texts.map(pythonFloat);
  if (shape.length === 1) return `torch.tensor([${values.join(', ')}])`;
  const [rows, cols] = shape;
  const lines = Array.from({ length: rows }, (_, i) => `[${values.slice(i * cols, (i + 1) * cols).join(', ')}]`);
  return `torch.tensor([${lines.join(',\n              ')}])`;
}

// "linear-gradient(to right, rgb(1, 2, 3) 0%, ...)" -> [["rgb(1, 2, 3)", 0], ...]
export function rgbStops(background) {
  const stops = [];
  for (const m of String(background).matchAll(/(rgba?\([^)]*\)|#[0-9a-f]{3,8})\s+([\d.]+)%/gi)) stops.push([m[1], Number(m[2]) / 100]);
  return stops;
}

const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const n = (v) => String(Math.round(v * 100) / 100);
// A scene ({width, height, background, items: rect | ramp | text}) as SVG text: the same parts, in the
// same places and colours, as the canvas draws for the PNG. A cell's rect carries data-row and data-col.
export function svgFromScene(scene) {
  const defs = [], parts = [];
  scene.items.forEach((item, k) => {
    if (item.type === 'rect') {
      parts.push(`<rect x="${n(item.x)}" y="${n(item.y)}" width="${n(item.w)}" height="${n(item.h)}" rx="${n(item.radius || 0)}" fill="${esc(item.fill)}"${item.row != null ? ` data-row="${item.row}" data-col="${item.col}"` : ''}/>`);
    } else if (item.type === 'ramp') {
      defs.push(`<linearGradient id="ramp${k}" x1="0" x2="1" y1="0" y2="0">${item.stops.map(([c, at]) => `<stop offset="${at}" stop-color="${esc(c)}"/>`).join('')}</linearGradient>`);
      parts.push(`<rect x="${n(item.x)}" y="${n(item.y)}" width="${n(item.w)}" height="${n(item.h)}" fill="url(#ramp${k})"/>`);
    } else {
      parts.push(`<text x="${n(item.x)}" y="${n(item.y)}" fill="${esc(item.fill)}" font-size="${n(item.size)}" font-weight="${esc(item.weight)}" font-style="${esc(item.style)}" font-family="${esc(item.family)}" xml:space="preserve">${esc(item.text)}</text>`);
    }
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}" viewBox="0 0 ${scene.width} ${scene.height}">`
    + `${defs.length ? `<defs>${defs.join('')}</defs>` : ''}<rect width="100%" height="100%" fill="${esc(scene.background)}"/>${parts.join('')}</svg>`;
}
