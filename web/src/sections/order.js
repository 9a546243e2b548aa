// The page's order of sections, by id (registry.js builds the page from it), and where one section
// stands from another, so a sentence that says "above" or "further down" is true on the full page and
// says no direction in a single-section embed, where the other section is not shown.
// The chapter's story: §3.3.2's batched product (rung 1, the second source document, which ends "the
// next step adds trainable weights") comes before §3.4 (rung 2, the first, which opens "the simplified
// mechanism of §3.3 had nothing to learn"), then §3.5, §3.6; the bug hunt after the mechanisms its
// planted mistakes break, then "Check my code" (the reader's own module against those mistakes), training last.
import { t } from '../i18n/index.js';
export const PAGE_ORDER = ['batched', 'step-by-step', 'temperature', 'why-sqrt-dk', 'classes', 'causal', 'multi-head', 'bug-hunt', 'check', 'train'];

// 'above', 'below' or null (the other section is not on this page: ctx.open is false for one section).
export function whereIs(ctx, from, to) {
  if (!ctx.open) return null;
  const a = PAGE_ORDER.indexOf(from), b = PAGE_ORDER.indexOf(to);
  if (a < 0 || b < 0 || a === b) return null;
  return b < a ? 'above' : 'below';
}

// " (above)", " (further down)" or "" to write after a section's name; with inside ("rung 1"):
// " (rung 1, above)", " (rung 1, further down)" or " (rung 1)".
export function placeNote(ctx, from, to, inside = '') {
  const where = whereIs(ctx, from, to);
  const words = [inside, where === 'above' ? t('place.above') : where === 'below' ? t('place.below') : ''].filter(Boolean);
  return words.length ? t('place.note', { words: words.join(t('place.sep')) }) : '';
}
