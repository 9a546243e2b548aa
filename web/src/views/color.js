// Colour scales for drawn tensors: viridis (perceptually uniform, colour-blind safe) for weights in
// [0, 1] and a blue-white-red diverging scale centred on 0 for signed values. Colour is never the only
// cue: every cell also carries its value as text, title and accessible name.

import { sched } from './schedule.js';

// viridis at 0, 0.1, ..., 1 (matplotlib's LUT at those points); interpolated linearly in between.
const VIRIDIS = ['#440154', '#482475', '#414487', '#355f8d', '#2a788e', '#21918c', '#22a884', '#44bf70', '#7ad151', '#bddf26', '#fde725'];
// ColorBrewer RdBu, from −1 (dark blue) through 0 (near white) to +1 (dark red).
const BLUE_WHITE_RED = ['#053061', '#2166ac', '#4393c3', '#92c5de', '#d1e5f0', '#f7f7f7', '#fddbc7', '#f4a582', '#d6604d', '#b2182b', '#67001f'];

const rgbOf = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const VIRIDIS_RGB = VIRIDIS.map(rgbOf);
const DIVERGING_RGB = BLUE_WHITE_RED.map(rgbOf);

function interpolate(stops, t) {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  return stops[i].map((c, k) => Math.round(c + (stops[i + 1][k] - c) * f));
}

// Low values light, high values dark: more ink means more weight on a light page.
export function sequentialRgb(t, stops = VIRIDIS_RGB_LIGHT_FIRST) { return interpolate(stops, t); }
// t in [−1, 1], 0 is white.
export function divergingRgb(t, stops = DIVERGING_RGB) { return interpolate(stops, (t + 1) / 2); }
const VIRIDIS_RGB_LIGHT_FIRST = VIRIDIS_RGB.slice().reverse();

// An author's scales, from the CSS custom properties on or above the element (docs/embedding.md, Theming):
// --attention-lab-heat-low/-high replace viridis; --attention-lab-heat-negative/-zero/-positive
// replace blue-white-red. Any CSS colour; an unset or unreadable one keeps the default.
const HEAT = { sequential: ['low', 'high'], diverging: ['negative', 'zero', 'positive'] };
let probe = null;   // a canvas context: assigning a CSS colour to fillStyle reads it back as #rrggbb
function cssColorRgb(text) {
  if (!text) return null;
  if (!probe) probe = document.createElement('canvas').getContext('2d');
  if (!probe) return null;
  probe.fillStyle = '#000001';
  probe.fillStyle = text;
  const hex = probe.fillStyle;
  return /^#[0-9a-f]{6}$/i.test(hex) && hex !== '#000001' ? rgbOf(hex) : null;
}
// The --attention-lab-heat-* stops set on (or inherited by) node: read once per frame and root.
// Read from the shadow root's host, where they are set or inherited: a host whose own style is clean
// costs no style pass even while the views inside it have just been written.
export function themedStops(node) {
  const root = node.getRootNode();
  return sched.oncePerFrame(root, () => readStops(root.host || node));
}
function readStops(node) {
  const style = getComputedStyle(node);
  const read = (names) => {
    const stops = names.map((n) => cssColorRgb(style.getPropertyValue(`--attention-lab-heat-${n}`).trim()));
    return stops.every(Boolean) ? stops : null;
  };
  return { sequential: read(HEAT.sequential), diverging: read(HEAT.diverging) };
}

export const cssRgb = ([r, g, b]) => `rgb(${r}, ${g}, ${b})`;

// WCAG relative luminance of an sRGB colour.
function luminance(rgb) {
  const [r, g, b] = rgb.map((c) => { const s = c / 255; return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const INK = '#000000', PAPER = '#ffffff';   // pure black: #111 falls under 4.5:1 on mid blues
const INK_L = luminance(rgbOf(INK));
// The text colour with the higher contrast on this background: always 4.58:1 or more (WCAG AA).
export function textOn(rgb) {
  const l = luminance(rgb);
  return (l + 0.05) / (INK_L + 0.05) >= 1.05 / (l + 0.05) ? INK : PAPER;
}

// Attention weights drawn per row ('rows'): each row's smallest weight gets the ramp's light end and
// its largest the dark end, so "journey attends most" shows even when all 36 weights lie in 0.09-0.23.
// A row whose weights lie within ROW_MIN_SPAN of each other is drawn on a scale ROW_MIN_SPAN wide around
// its middle, so near-equal weights look near-equal and rounding noise never looks like a preference.
export const ROW_MIN_SPAN = 0.05;
// Per row: [lo, hi] of its finite values that are not skipped (masked), widened to ROW_MIN_SPAN.
function rowDomains(values, cols, skip) {
  const domains = [];
  for (let start = 0; start < values.length; start += cols) {
    let lo = Infinity, hi = -Infinity;
    for (let k = start; k < start + cols; k++) {
      const v = values[k];
      if ((skip && skip[k]) || !Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (lo === Infinity) { lo = 0; hi = 1; }
    if (hi - lo < ROW_MIN_SPAN) { const mid = (lo + hi) / 2; lo = mid - ROW_MIN_SPAN / 2; hi = mid + ROW_MIN_SPAN / 2; }
    domains.push([lo, hi]);
  }
  return domains;
}

// A scale for a set of values: {kind, domain, rgb(v, row), at(t)}.
//   kind 'sequential': domain [lo, hi] (default [0, 1]); 'diverging': domain [−m, m] centred on 0;
//   'auto': sequential [0, 1] when every value is in [0, 1], diverging when any is negative,
//   otherwise sequential [0, max].
//   kind 'rows': sequential per row (rowDomains above); needs cols, and skip (the masked cells) if any.
// stops: {sequential, diverging} colour stops replacing the defaults (themedStops), each optional.
export function scaleFor(values, { kind = 'auto', domain, stops = {}, cols = values.length, skip = null } = {}) {
  if (kind === 'rows') {
    const q = stops.sequential || VIRIDIS_RGB_LIGHT_FIRST;
    const domains = rowDomains(values, cols, skip);
    return { kind, domain: [0, 1], domains, rgb: (v, row = 0) => { const [d0, d1] = domains[row]; return sequentialRgb((v - d0) / (d1 - d0), q); }, at: (t) => sequentialRgb(t, q) };
  }
  let lo = Infinity, hi = -Infinity;
  for (const v of values) if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
  if (lo === Infinity) { lo = 0; hi = 1; }
  if (kind === 'auto') kind = lo < 0 ? 'diverging' : 'sequential';
  if (kind === 'diverging') {
    const m = domain ? Math.max(Math.abs(domain[0]), Math.abs(domain[1])) : Math.max(Math.abs(lo), Math.abs(hi)) || 1;
    const d = stops.diverging || DIVERGING_RGB;
    return { kind, domain: [-m, m], rgb: (v) => divergingRgb(v / m, d), at: (t) => divergingRgb(2 * t - 1, d) };
  }
  const [d0, d1] = domain || [0, hi <= 1 ? 1 : hi];
  const span = d1 - d0 || 1;
  const q = stops.sequential || VIRIDIS_RGB_LIGHT_FIRST;
  return { kind, domain: [d0, d1], rgb: (v) => sequentialRgb((v - d0) / span, q), at: (t) => sequentialRgb(t, q) };
}
