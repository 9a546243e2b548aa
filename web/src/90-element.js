// <attention-lab section="all|batched|step-by-step|temperature|classes|causal|multi-head"
//                engine="auto|simd|scalar">: the whole page or one section, in an open shadow root.
// Defining the element is the only global effect (plus KaTeX's font faces, which must live on document).

const SECTION_BUILDERS = {
  batched: batchedSection, 'step-by-step': stepsSection, temperature: temperatureSection,
  classes: classesSection, causal: causalSection, 'multi-head': multiHeadSection,
};
const ENGINE_NAMES = { simd: 'WebAssembly SIMD128', scalar: 'WebAssembly scalar' };

let sharedSheet = null;
function styleSheet() {
  if (!sharedSheet) {
    sharedSheet = new CSSStyleSheet();
    sharedSheet.replaceSync(KATEX_CSS + '\n' + ELEMENT_CSS);
  }
  return sharedSheet;
}

// @font-face does not work inside a shadow root, so KaTeX's faces are added to the document's set, as
// URLs of the woff2 files in katex/fonts/ beside this script (the same-folder rule as the engine; works
// from file:// and, with CORS, across origins). A face in the set is only fetched when text on screen
// uses it, so the page downloads the few its math needs. Done in a later task, off the first one.
let fontsAdded = false;
function addKatexFonts() {
  if (fontsAdded || !document.fonts || typeof FontFace === 'undefined') return;
  fontsAdded = true;
  nextTask().then(() => {
    for (const f of KATEX_FONTS) {
      const url = new URL(`katex/fonts/${f.file}`, BASE_URL).href;
      document.fonts.add(new FontFace(f.family, `url(${JSON.stringify(url)}) format("woff2")`, { style: f.style, weight: f.weight, display: 'swap' }));
    }
  });
}

class AttentionLabElement extends HTMLElement {
  static get observedAttributes() { return ['section', 'engine']; }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.shadowRoot.adoptedStyleSheets = [styleSheet()];
    this.generation = 0;
    this.runs = null;
    // Resolves when every section shows the latest inputs (tests and embedders may await it).
    this.updateComplete = Promise.resolve();
  }

  connectedCallback() { addKatexFonts(); loadKatex(); this.render(); }
  disconnectedCallback() { this.generation++; this.freeRuns(); }
  attributeChangedCallback() { if (this.isConnected) this.render(); }

  freeRuns() {
    if (this.runs) { this.runs.run.delete(); this.runs.simpleRun.delete(); this.runs = null; }
  }

  // A visible sentence instead of the content (bad attribute, engine that would not load).
  showMessage(text) {
    this.shadowRoot.replaceChildren(h('div', { class: 'lab' }, h('p', { class: 'fatal', role: 'alert', 'data-testid': 'lab-error', text })));
  }

  async render() {
    const generation = ++this.generation;
    const section = (this.getAttribute('section') || 'all').trim();
    const kind = (this.getAttribute('engine') || 'auto').trim();
    if (section !== 'all' && !SECTION_BUILDERS[section]) {
      this.showMessage(`attention-lab: section="${section.slice(0, 40)}" is not a section. Use one of: all, ${Object.keys(SECTION_BUILDERS).join(', ')}.`);
      return;
    }
    if (!['auto', 'simd', 'scalar'].includes(kind)) {
      this.showMessage(`attention-lab: engine="${kind.slice(0, 40)}" is not an engine. Use auto, simd or scalar.`);
      return;
    }
    this.shadowRoot.replaceChildren(h('div', { class: 'lab' }, h('p', { class: 'loading', role: 'status', text: 'Loading the attention engine…' })));
    let loaded;
    try {
      loaded = await loadEngine(kind);
    } catch (e) {
      if (generation === this.generation) this.showMessage(`attention-lab could not start its engine: ${e && e.message ? e.message : e}`);
      return;
    }
    if (generation !== this.generation) return;
    const cellsJson = await bookCellsJson(loaded.engine, loaded.kind);
    if (generation !== this.generation) return;
    this.build(section, loaded.engine, loaded.kind, generation, cellsJson);
  }

  build(section, engine, kind, generation, cellsJson) {
    const cells = new Map(JSON.parse(cellsJson).map((c) => [c.id, c]));
    this.freeRuns();
    this.runs = { run: new engine.AttentionRun(), simpleRun: new engine.AttentionRun() };
    const book = bookState(cells);
    let results = null, pass = 0;
    const status = h('p', { class: 'note error', role: 'alert', hidden: true });
    const ctx = {
      engine, cells, book, state: bookState(cells), open: section === 'all',
      run: () => this.runs.run, kind: () => kind, results: () => results,
      // One pass: the runs now, then one section per task so no task grows long; a newer pass
      // (the learner typed again) stops an older one.
      recompute: () => {
        const mine = ++pass;
        const first = mine === 1;
        try {
          results = computeAll(engine, ctx.state, this.runs.run, this.runs.simpleRun);
          status.hidden = true;
        } catch (e) {
          status.textContent = `The engine could not compute this: ${e.message}`;
          status.hidden = false;
          return this.updateComplete;
        }
        const R = results;
        this.updateComplete = (async () => {
          for (const [i, s] of sections.entries()) {
            if (i > 0 || first) await nextTask();   // the first pass starts after the build's task
            if (mine !== pass || this.generation !== generation) return;
            try {
              s.update(R);
            } catch (e) {
              status.textContent = `The engine could not compute this: ${e.message}`;
              status.hidden = false;
            }
          }
          await drainTex();
        })();
        return this.updateComplete;
      },
    };
    // The first build and pass leave new formulas to drainTex (split across tasks); later passes
    // render them at once, so a formula never blinks empty while the learner edits or slides.
    let sections = [];
    texDeferred++;
    try {
      const names = section === 'all' ? SECTIONS : [section];
      sections = names.map((name) => SECTION_BUILDERS[name](ctx));
      const lab = h('div', { class: 'lab' });
      if (section === 'all') {
        lab.append(h('header', { class: 'intro' },
          h('h1', { text: 'Self-attention with trainable weights' }),
          para('An interactive companion to chapter 3 of “Build a Large Language Model (From Scratch)”. Every number below is computed live in your browser by a C++ engine that reproduces PyTorch’s numbers and print format digit for digit.')),
        ladder(this.shadowRoot));
      }
      if (section !== 'temperature') lab.append(editorPanel(ctx).el);
      lab.append(status, ...sections.map((s) => s.el),
        h('footer', { class: 'footer' }, h('p', { 'data-testid': 'engine-footer', text: `Engine: ${ENGINE_NAMES[kind] || kind}` })));
      this.shadowRoot.replaceChildren(lab);
      ctx.recompute();
    } finally {
      // then formulas render at once again; drain what a pass that stopped early (error) left queued
      const done = () => { texDeferred--; drainTex(); };
      this.updateComplete.then(done, done);
    }
  }
}

if (!customElements.get('attention-lab')) customElements.define('attention-lab', AttentionLabElement);
