// Section links: index.html#step-by-step, #temperature, ... The sections' ids live in the shadow root,
// where the browser's own fragment scrolling cannot reach, so the element reads the fragment itself
// (at load and on hashchange) and scrolls to the section, focusing it for keyboard and screen readers.
import { sectionById } from './sections/registry.js';
import { scrollIntoViewSettled } from './scheduler.js';

// The section a fragment names ("#step-by-step" or "#al-step-by-step"), or null.
export function sectionOfHash(hash) {
  let name = '';
  try { name = decodeURIComponent(String(hash || '').replace(/^#/, '')); } catch { return null; }
  const id = name.startsWith('al-') ? name.slice(3) : name;
  return id && sectionById(id) ? id : null;
}

// Scrolls root's section named by location.hash into view; true when there was one. The listener is
// removed with the returned function (when the element leaves the page).
export function followFragment(root) {
  const go = () => {
    const id = sectionOfHash(location.hash);
    const target = id && root.getElementById(`al-${id}`);
    if (!target) return false;
    scrollIntoViewSettled(target, 'start');
    target.focus({ preventScroll: true });
    return true;
  };
  window.addEventListener('hashchange', go);
  return { go, stop: () => window.removeEventListener('hashchange', go) };
}
