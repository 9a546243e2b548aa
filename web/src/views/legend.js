// One legend for several matrix views drawn on the same scale (create those with legend: false), so
// maps meant to be compared are read with one key: the ramp, what its ends mean, and the cells that
// carry no colour of the scale (masked future, dropped by dropout).
import { el, setText } from './nodes.js';
import { scaleFor, cssRgb, themedStops } from './color.js';
import { fixed } from './format.js';
import { say } from './words.js';

// sharedLegend({kind: 'rows' | 'sequential' | 'diverging', domain?, says, masked?, dropped?, testid?})
//   says: the sentence beside the ramp ("per row: …"); masked/dropped: add their swatch and name.
export function sharedLegend({ kind, domain, says, masked = false, dropped = false, testid }) {
  const ramp = el('span', { class: 'mv-ramp' });
  const ticks = el('span', { class: 'mv-ticks' });
  const root = el('div', { class: 'shared-legend', 'data-testid': testid, 'data-scale': kind },
    el('span', { class: 'mv-legend', 'aria-hidden': 'true' }, ramp, ticks),
    el('span', { class: 'legend-says', text: says }),
    masked ? el('span', null, el('span', { class: 'legend-swatch masked', 'aria-hidden': 'true' }), say('views.legend.masked')) : null,
    dropped ? el('span', null, el('span', { class: 'legend-swatch dropped', 'aria-hidden': 'true' }), say('views.legend.dropped')) : null);
  // Drawn when in the page (the author's colours are read from it).
  function draw() {
    const scale = scaleFor([], { kind, domain, stops: root.isConnected ? themedStops(root) : {} });
    ramp.style.background = `linear-gradient(to right, ${Array.from({ length: 11 }, (_, i) => `${cssRgb(scale.at(i / 10))} ${i * 10}%`).join(', ')})`;
    const [lo, hi] = scale.domain;
    const parts = kind === 'rows' ? [say('views.legend.rowMin'), say('views.legend.rowMax')] : kind === 'diverging' ? [fixed(lo, 1), '0', fixed(hi, 1)] : [fixed(lo, 1), fixed(hi, 1)];
    if (ticks.childNodes.length !== parts.length) ticks.replaceChildren(...parts.map(() => el('span')));
    parts.forEach((p, i) => setText(ticks.childNodes[i], p));
  }
  draw();
  return { el: root, update: draw };
}
