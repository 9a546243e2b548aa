// The chapter's ladder of four attention variants; this page's rung is marked, every rung links to
// its section. Links scroll inside the shadow root (a plain #hash cannot reach into it).

const RUNGS = [
  { id: 'batched', name: 'Simplified self-attention', note: '§3.3: weights straight from dot products, nothing to learn' },
  { id: 'step-by-step', name: 'Self-attention with trainable weights', note: '§3.4: W_q, W_k, W_v and scaling by √d_k — this page', current: true },
  { id: 'causal', name: 'Causal attention', note: '§3.5: no peeking at future tokens, plus dropout' },
  { id: 'multi-head', name: 'Multi-head attention', note: '§3.6: several heads in parallel, GPT-2’s kind' },
];

function ladder(root) {
  const list = h('ol', { class: 'ladder' }, RUNGS.map((r) => {
    const link = h('a', { href: `#al-${r.id}`, 'aria-current': r.current ? 'step' : null, text: r.name });
    link.addEventListener('click', (e) => {
      const target = root.getElementById(`al-${r.id}`);
      if (!target) return;
      e.preventDefault();
      target.scrollIntoView({ block: 'start' });
      target.focus({ preventScroll: true });
    });
    return h('li', { class: r.current ? 'current' : null }, link, h('span', { class: 'rung-note', text: ` ${r.note}` }));
  }));
  return h('nav', { class: 'ladder-nav', 'aria-label': 'The four attention variants of chapter 3' }, h('p', { class: 'ladder-title', text: 'Chapter 3’s ladder of attention variants' }), list);
}
