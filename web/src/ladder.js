// The chapter's ladder of attention variants, read from the section registry; this page's rung is
// marked, every rung links to its section. Links scroll inside the shadow root (a plain #hash
// cannot reach into it).
import { h } from './dom.js';
import { RUNGS } from './sections/registry.js';
import { scrollIntoViewSettled } from './scheduler.js';
import { t } from './i18n/index.js';

export function ladder(root) {
  const list = h('ol', { class: 'ladder' }, RUNGS.map(({ id, rung }) => {
    const link = h('a', { href: `#al-${id}`, 'aria-current': rung.current ? 'step' : null, text: rung.name });
    link.addEventListener('click', (e) => {
      const target = root.getElementById(`al-${id}`);
      if (!target) return;
      e.preventDefault();
      scrollIntoViewSettled(target, 'start');
      target.focus({ preventScroll: true });
    });
    return h('li', { class: rung.current ? 'current' : null }, link, h('span', { class: 'rung-note', text: ` ${rung.note}` }));
  }));
  return h('nav', { class: 'ladder-nav', 'aria-label': t('ladder.label') }, h('p', { class: 'ladder-title', text: t('ladder.title') }), list);
}
