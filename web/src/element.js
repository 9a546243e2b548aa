// <attention-lab section="all|batched|step-by-step|temperature|why-sqrt-dk|classes|causal|multi-head|bug-hunt|train"
//                exercises="on|off"
//                engine="auto|simd|scalar">: the whole page or one section, in an open shadow root.
// Defining the element is the only global effect (plus KaTeX's font faces, which must live on document).
import ELEMENT_CSS from './element.css';
import { VIEWS_CSS, useScheduler } from './views/index.js';
import { useExportState } from './views/export.js';
import { sectionHtml, permalink } from './export-state.js';
import { version as VERSION } from '../../package.json';
import { KATEX_CSS, KATEX_FONTS } from 'katex-assets';
import { defaultBase, engineBaseFolder, configureBases, fontURL, warnIfGuessed, isGuessedFolder, guessedFolderSentence, INLINE } from './base-url.js';
import { h, para } from './dom.js';
import { katexFrom, drainMath, renderMath, deferMath, onKatexCss } from './math.js';
import { loadEngine, sectionData, compileRequestReader } from './engine.js';
import { ENGINE_SECTIONS } from './engine-limits.js';
import { bookState, inputRows, stateFromAttributes, BOOK_D_OUT, BOOK_WORDS, TOKENS, D_IN } from './inputs.js';
import { nextTask, nextFrame, idle, drawingSettled, watchNear, viewScheduler, holdUnseenDraws } from './scheduler.js';
import { SECTIONS, sectionById } from './sections/registry.js';
import { editorPanel } from './editor.js';
import { ladder } from './ladder.js';
import { followFragment } from './fragment.js';
import { keyboardScroll } from './sections/common.js';
import { defineHostProperties, upgradeHostProperties, stateSnapshot, resultsOf, keepLearnerEdits } from './host-api.js';
import LEARN_CSS from './learn/learn.css';
import { learnHub, exercisesOn, openStorage, checkedProgress } from './learn/index.js';
import { STORE_VERSION } from './learn/progress.js';
import { t, useLanguage, resolveLanguage, canonicalTag, registerTranslation, onRegistered, translator, engineSentence } from './i18n/index.js';

// The author's example (inputs.js's stateFromAttributes reads them); a change rebuilds the element.
const EXAMPLE_ATTRIBUTES = ['words', 'inputs', 'seed', 'd-out', 'temperature', 'weights'];

const THEMES = new Set(['auto', 'light', 'dark']);
const themeOf = (value) => (value === null ? 'auto' : value.trim());

const ENGINES = new Map([['auto', ''], ['simd', 'WebAssembly SIMD128'], ['scalar', 'WebAssembly scalar']]);

// Events in the element's shadow root handled in its own language (i18n/index.js's active language).
const EVENTS_WITH_WORDS = ['click', 'input', 'change', 'keydown', 'pointerdown', 'focusin', 'toggle'];

// One sheet for every element; KaTeX's rules are those of the build-time templates until KaTeX itself
// loads for a formula without one, then its whole sheet (math.js's onKatexCss).
let sharedSheet = null;
function styleSheet() {
  if (!sharedSheet) {
    sharedSheet = new CSSStyleSheet();
    const fill = (katexCss) => sharedSheet.replaceSync(katexCss + '\n' + ELEMENT_CSS + '\n' + VIEWS_CSS + '\n' + LEARN_CSS);
    fill(KATEX_CSS);
    onKatexCss(fill);
  }
  return sharedSheet;
}

// @font-face does not work inside a shadow root, so KaTeX's faces are added to the document's set, as
// URLs of the woff2 files in katex/fonts/ beside this script (the same-folder rule as the engine; works
// from file:// and, with CORS, across origins). A face in the set is only fetched when text on screen
// uses it, so the page downloads the few its math needs. Done when the browser is idle, off the first
// screen's critical path (the math is rendered after the first pass). The two faces every formula uses
// are fetched then, before any math is laid out: fetched when it was, the math was laid out twice, first
// in the fallback serif (four sizes no other text uses: a question each to the system's font service,
// Chromium on Linux), then in them (throttled load: layout 314 -> 282 ms).
let fontsAdded = false;
const FACES_EVERY_FORMULA_USES = new Set(['KaTeX_Main normal 400', 'KaTeX_Math italic 400']);   // (family, style, weight)
function addKatexFonts(base) {
  if (fontsAdded || !document.fonts || typeof FontFace === 'undefined') return;
  fontsAdded = true;
  idle().then(() => {
    for (const f of KATEX_FONTS) {
      const url = fontURL(base, f.file);
      const face = new FontFace(f.family, `url(${JSON.stringify(url)}) format("woff2")`, { style: f.style, weight: f.weight, display: 'swap' });
      document.fonts.add(face);
      if (FACES_EVERY_FORMULA_USES.has(`${f.family} ${f.style} ${f.weight}`)) face.load().catch(() => {});   // (a face that fails: the math keeps the fallback)
    }
  });
}

// (no HTMLElement where there is no DOM: importing in Node defines nothing and touches nothing)
class AttentionLabElement extends (typeof HTMLElement === 'function' ? HTMLElement : Object) {
  static get observedAttributes() { return ['section', 'engine', 'engine-base', 'theme', 'exercises', 'check', 'lang', ...EXAMPLE_ATTRIBUTES]; }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });   // its style sheet comes with the first render (adoptStyles)
    // a section's handlers build their words in this element's language
    for (const type of EVENTS_WITH_WORDS) this.shadowRoot.addEventListener(type, () => this.useLanguage(), true);
    this.generation = 0;
    // Resolve when every section, and when the sections on screen, show the latest inputs (tests and
    // embedders may await them).
    this.updateComplete = Promise.resolve();
    this.visibleUpdateComplete = this.updateComplete;
  }

  // The first render waits for a task of its own, so a script that imports the element and then calls
  // AttentionLab.configure({base}) is heard before anything loads, and the render's start (about 20 ms
  // throttled 4×: the loading line, the engine's script) is not added to the task that evaluated
  // this script (which with it ran over 50 ms on a phone-class CPU).
  connectedCallback() {
    connected.add(this);
    if (!this.started) {
      upgradeHostProperties(this);
      this.updateComplete = this.visibleUpdateComplete = this.nextBuild();
    }
    nextTask().then(() => {
      if (!this.isConnected || this.started) return;
      this.started = true;
      let base = null;
      try { base = this.useEngineBase(); } catch { /* render() shows the message */ }
      if (base && !INLINE) { addKatexFonts(base); katexFrom(base); }   // inline (a notebook): KaTeX comes with the page, the fonts are the system's   // KaTeX itself loads only for a formula without a build-time template
      this.render();
    });
  }
  disconnectedCallback() {
    connected.delete(this); this.started = false; this.generation++;
    this.fragment?.stop(); this.fragment = null;
    this.nearWatch?.stop(); this.nearWatch = null;
  }
  // Attributes parsed with the element come before connectedCallback: its first render reads them.
  // A theme change between valid themes is CSS only (element.css's :host([theme=...])).
  attributeChangedCallback(name, old, value) {
    if (name === 'theme' && THEMES.has(themeOf(old)) && THEMES.has(themeOf(value))) return;
    if (old === value) return;
    // the next build keeps the learner's edits except this value (host-api.js)
    if (EXAMPLE_ATTRIBUTES.includes(name)) (this.changedExample ??= new Set()).add(name);
    if (this.started && this.isConnected) { this.updateComplete = this.visibleUpdateComplete = this.nextBuild(); this.render(); }
  }

  // The host's API (docs/embedding.md, "For host pages"); the properties are defined by host-api.js.
  // el.state: the learner's current values; el.results: §3.4's weights and context vectors for them.
  // Both null until the first numbers are shown.
  get state() { return this.liveState && this.labCtx ? stateSnapshot(this.liveState) : null; }
  get results() {
    if (!this.labCtx) return null;
    try { return resultsOf(this.labCtx.data('step-by-step')); } catch { return null; }
  }
  // el.progress: the learner's answers as plain data, {version, entries}, for a host that keeps them
  // (an LMS's suspend_data, a sandboxed frame's parent); setting it puts them back (docs/embedding.md).
  // Before the first build, a value set is kept for it.
  get progress() {
    if (this.labCtx) return this.labCtx.learn.progress.snapshot();
    return this.heldProgress ? JSON.parse(JSON.stringify({ version: STORE_VERSION, entries: this.heldProgress })) : null;
  }
  set progress(value) {
    if (this.labCtx) { this.labCtx.learn.setProgress(value); return; }
    this.heldProgress = checkedProgress(value);
    this.progressFromHost = true;
  }
  // el.summary: {answered, firstTryRight, total} of this element's questions; null until the first build.
  get summary() { return this.labCtx ? this.labCtx.learn.summary() : null; }
  // el.reset(): the author's example again (the attributes), dropping the learner's edits and T.
  reset() {
    this.liveState = null;
    this.changedExample?.clear();
    if (this.started && this.isConnected) { this.updateComplete = this.visibleUpdateComplete = this.nextBuild(); this.render(); }
    return this.updateComplete;
  }
  // A promise for the next build's first pass, or its message: what updateComplete is while a host's
  // change rebuilds the element.
  nextBuild() { return new Promise((resolve) => (this.buildWaiters ??= []).push(resolve)); }
  settleBuildWaiters(done) {
    const waiters = this.buildWaiters || [];
    this.buildWaiters = [];
    for (const resolve of waiters) resolve(done);
  }
  // attention-lab-change: after a learner's edit, once its numbers are computed (composed: it leaves the
  // shadow root; bubbles: a listener on an ancestor hears it).
  announceChange() {
    const detail = { state: this.state, results: this.results };
    this.dispatchEvent(new CustomEvent('attention-lab-change', { detail, bubbles: true, composed: true }));
  }

  // The folder of this element's files (engine, worker; KaTeX too, for the first element): its
  // engine-base attribute where base-url.js approves it, else the page's default. Throws the sentence
  // for a bad or refused value.
  useEngineBase() {
    const attr = this.getAttribute('engine-base');
    return attr === null || attr.trim() === '' ? defaultBase() : engineBaseFolder(attr);
  }

  // The element's style sheet (its CSS parsed the first time: about 30 ms on a phone-class CPU), adopted
  // before anything is shown.
  adoptStyles() {
    if (!this.shadowRoot.adoptedStyleSheets.length) this.shadowRoot.adoptedStyleSheets = [styleSheet()];
  }

  // The language the element speaks (docs/translations.md): its lang attribute, else its nearest
  // ancestor's (across shadow roots), else the document's; {lang, dir} of the catalogue that serves it.
  // A lang attribute of its own that is no language tag is refused with a sentence (render).
  languageTag() {
    for (let node = this; node; node = node.getRootNode()?.host) {
      const owner = node.closest('[lang]');
      if (owner && (owner !== this || canonicalTag(owner.getAttribute('lang')))) return owner.getAttribute('lang');
      if (owner === this) break;
    }
    return document.documentElement.lang || 'en';
  }
  useLanguage() {
    this.language ??= resolveLanguage(this.languageTag());
    useLanguage(this.language.lang);
  }

  // The whole page's head: its title, what it is, and the chapter's ladder (none for one section).
  pageHead(section) {
    if (section !== 'all') return [];
    return [h('header', { class: 'intro' },
      h('h1', { text: t('page.title') }),
      para(t('page.intro'))),
    ladder(this.shadowRoot)];
  }

  // A visible sentence instead of the content (bad attribute, engine that would not load).
  showMessage(text) {
    this.adoptStyles();
    this.shadowRoot.replaceChildren(h('div', { class: 'lab', lang: this.language?.lang, dir: this.language?.dir }, h('p', { class: 'fatal', role: 'alert', 'data-testid': 'lab-error', text })));
    this.settleBuildWaiters();
  }

  async render() {
    const generation = ++this.generation;
    const section = (this.getAttribute('section') || 'all').trim();
    const kind = (this.getAttribute('engine') || 'auto').trim();
    this.language = null;
    this.useLanguage();
    const ownLang = this.getAttribute('lang');
    if (ownLang !== null && ownLang.trim() !== '' && !canonicalTag(ownLang)) {
      this.showMessage(t('error.lang', { value: ownLang.slice(0, 40) }));
      return;
    }
    if (section !== 'all' && !sectionById(section)) {
      this.showMessage(t('error.section', { value: section.slice(0, 40), sections: SECTIONS.map((s) => s.id).join(', ') }));
      return;
    }
    if (!THEMES.has(themeOf(this.getAttribute('theme')))) {
      this.showMessage(t('error.theme', { value: this.getAttribute('theme').slice(0, 40) }));
      return;
    }
    if (!ENGINES.has(kind)) {
      this.showMessage(t('error.engine', { value: kind.slice(0, 40) }));
      return;
    }
    let base;
    try {
      exercisesOn(this.getAttribute('exercises'));   // exercises="on|off": the sentence for another value
      base = this.filesBase = this.useEngineBase();
      warnIfGuessed(() => this.filesBase);
      // The example's attributes checked before anything loads (the book's inputs come from the engine).
      this.example(bookState({ values: [] }));
    } catch (e) { this.showMessage(e.message); return; }
    // The engine's download starts now; the style sheet follows in a task of its own (the first render
    // runs in the task that evaluates this script: together they were one long task on a phone), and the
    // page's head and the loading line wait for it, hidden. The head is static text: shown while the
    // engine loads, and kept by the build, it is laid out in a frame of its own, not in the one that
    // lays out the first section (throttled 4×, that frame was the load's longest task, 50-65 ms).
    const styled = this.shadowRoot.adoptedStyleSheets.length > 0;
    const loading = h('p', { class: 'loading', role: 'status', text: t('page.loading') });
    const lab = h('div', { class: 'lab', lang: this.language.lang, dir: this.language.dir, hidden: !styled }, ...this.pageHead(section), loading);
    this.shadowRoot.replaceChildren(lab);
    if (!styled) nextTask().then(() => { this.adoptStyles(); lab.hidden = false; });
    nextTask().then(openStorage);   // (the learner's answers are read at the build: learn/progress.js)
    let loaded;
    try {
      loaded = await loadEngine(kind, base);
    } catch (e) {
      const guessed = isGuessedFolder(base) ? ` ${guessedFolderSentence(base)}` : '';
      if (generation === this.generation) this.showMessage(t('error.engineStart', { reason: e && e.message ? e.message : e }) + guessed);
      return;
    }
    if (generation !== this.generation) return;
    // the engine's first calls (each compiles the code it runs: engine.js) in tasks of their own
    await nextTask();
    if (generation !== this.generation) return;
    compileRequestReader(loaded.engine);
    await nextTask();
    if (generation !== this.generation) return;
    // The book's inputs, as the engine holds them (each with its shortest float text).
    const book = bookState(sectionData(loaded.engine, { section: 'step-by-step', d_out: BOOK_D_OUT }).get('inputs'));
    await nextTask();   // then the build, in another
    if (generation !== this.generation) return;
    this.useLanguage();
    this.build(section, loaded.engine, loaded.kind, generation, book, { lab, loadingLine: loading });
  }

  // The starting state: the book's, with the author's attributes applied.
  example(book) {
    return stateFromAttributes((name) => this.getAttribute(name), book);
  }

  // In three tasks (the state and the learner's progress; the first section; the page around it and
  // its first pass): in one, the build was a 35-50 ms task at load (throttled 4×).
  // shell: render()'s lab, which the build fills: the page's head, shown (and laid out) while the engine
  // loaded, and the loading line.
  async build(section, engine, kind, generation, book, { lab, loadingLine }) {
    this.adoptStyles();
    let start;
    try {
      start = this.example(book);
      // the reader's weights checked once against the inputs (the engine's sentence names the layout)
      if (start.weights) sectionData(engine, { section: 'classes', inputs: inputRows(start), d_out: start.d_out, weights: start.weights });
    } catch (e) { this.showMessage(start && start.weights ? t('error.weights', { reason: engineSentence(e) }) : engineSentence(e)); return; }
    const status = h('p', { class: 'note error', role: 'alert', hidden: true });
    let scheduled = false, firstPass = true;
    const lastAnswers = new Map();   // section id -> {answer, words} it last showed
    const answers = new Map();       // request text -> the engine's answer, for the current edit
    const fail = (e) => { status.textContent = t('error.compute', { reason: engineSentence(e) }); status.hidden = false; };
    let eventQueued = false;
    const ctx = {
      learn: learnHub(this, section, exercisesOn(this.getAttribute('exercises'))),
      engine, book, start, base: this.filesBase, state: keepLearnerEdits(this.liveState, start, this.changedExample || new Set()), open: section === 'all',
      kind: () => kind,
      checkAttribute: () => this.getAttribute('check'),   // "Check my code"'s output from a notebook (sections/check.js)
      // The section's one engine call for this update: everything it shows, for the learner's inputs
      // (asked once per edit: the editor's preview and §3.4 ask for the same).
      data: (id, extra = {}) => {
        const request = { section: id, inputs: inputRows(ctx.state), d_out: ctx.state.d_out, seed: ctx.state.seed, ...(ctx.state.weights ? { weights: ctx.state.weights } : {}), ...extra };
        const key = JSON.stringify(request);
        if (!answers.has(key)) {
          if (answers.size > 16) answers.clear();   // a slider asks for many temperatures in one edit
          answers.set(key, sectionData(engine, request, lastAnswers.get(id)?.answer));
        }
        return answers.get(key);
      },
      // Work a section's update leaves until its text is in (its drawings): in the first pass, in a task
      // after the next frame, so that the frame shows the text, and with it the page's first numbers,
      // sooner, and the load's tasks stay short; in any later update, at once (an edit's frame shows both).
      afterText: (fn) => {
        if (!loading) { fn(); return; }
        laterWork.push(nextFrame().then(nextTask).then(() => { if (this.generation === generation) try { this.useLanguage(); fn(); } catch (e) { fail(e); } }));
      },
      // The same, or null when neither the answer nor the words changed since this section last showed
      // it: the section then has nothing to update.
      changedData: (id, extra = {}) => {
        const last = lastAnswers.get(id);
        const answer = ctx.data(id, extra);
        const words = ctx.state.words.join('\u0000');
        if (last && last.answer === answer && last.words === words) return null;
        lastAnswers.set(id, { answer, words });
        return answer;
      },
      // An edit: the sections on or near the screen are updated in the next animation frame, once
      // however many edits came before it; the others follow one per task (or at once when scrolled
      // near), so an edit is on screen by the next frame whatever the page's length. The first pass
      // (at load) spreads every section over tasks so none grows long.
      recompute: () => {
        edits++;
        answers.clear();
        if (scheduled) return this.updateComplete;
        scheduled = true;
        let shown;
        this.visibleUpdateComplete = new Promise((resolve) => { shown = resolve; });
        this.updateComplete = (async () => {
          const first = firstPass;
          firstPass = false;
          if (!first) await nextFrame();
          scheduled = false;
          const mine = edits;
          if (!status.hidden) status.hidden = true;
          if (!first) {
            for (const s of sections) if (isNear(s)) updateSection(s);
            shown();
            if (this.generation === generation) this.announceChange();
          }
          try {
            // sections.length grows as the sections not yet built are, one per task (buildNext)
            for (let i = 0; i < sections.length || unbuilt.length; i++) {
              if (i === sections.length) {
                await nextTask();
                if (this.generation !== generation) return;
                buildNext();
              }
              const s = sections[i];
              if (shows.get(s) === mine) continue;
              await nextTask();
              if (this.generation !== generation) return;
              if (edits !== mine) return this.updateComplete;   // a newer edit's pass takes over
              if (first && s !== firstSection && prefetch(s)) {
                await nextTask();
                if (this.generation !== generation) return;
                if (edits !== mine) return this.updateComplete;
              }
              updateSection(s);
            }
          } finally {
            if (first) { deferMath(-1); holdUnseenDraws(false); loading = false; }
          }
          if (first) await Promise.all(laterWork);   // the drawings the updates left for after their text
          if (first) await drainMath();
          if (first && this.generation === generation) for (const s of sections) keyboardScroll(s.el);   // math rendered: what scrolls now
          await drawingSettled();
          await drainMath();   // formulas the drawing rendered that wait for KaTeX (no build-time template)
          shown();
        })();
        return this.updateComplete;
      },
      // A learner's edit that needs no recompute (the temperature slider): the change event, once per frame.
      changed: () => {
        if (eventQueued) return;
        eventQueued = true;
        nextFrame().then(() => { eventQueued = false; if (this.generation === generation) this.announceChange(); });
      },
    };
    this.liveState = ctx.state;
    this.labCtx = ctx;
    this.changedExample?.clear();
    let edits = 0;
    let loading = true;        // the first pass: it shows every section, one per task, in page order
    const laterWork = [];      // what the first pass's updates left for a task after their text (afterText)
    const shows = new Map();   // section -> the edit it shows
    // The first pass asks the engine for a section's answer in a task before the one that shows it:
    // a section's first request compiles the engine code only it runs (engine.js: 5-20 ms throttled 4×),
    // which with the section's first update made one task over 50 ms. Its update then finds the answer
    // (ctx.data keeps it for the pass) when it asks the same, and the compiled code when not. Not the
    // first section's: the book's request compiled its code, and its update, with the first numbers,
    // follows the build at once (a task more, and a frame came first, whose draws went before them).
    const prefetch = (s) => {
      const id = s.el.dataset.section;
      if (!ENGINE_SECTIONS?.includes(id) || s.el.hidden) return false;   // (a hidden one, the bug hunt with exercises="off", asks nothing)
      try { ctx.data(id); } catch { /* refused: the update shows why */ }
      return true;
    };
    const updateSection = (s) => {
      if (this.generation !== generation || shows.get(s) === edits) return;
      shows.set(s, edits);
      this.useLanguage();
      try { s.update(); } catch (e) { fail(e); }
    };
    await nextTask();
    if (generation !== this.generation) return;
    this.useLanguage();
    // The first build queues its math for drainMath (a few ms per task); later updates render at once.
    deferMath(1);
    holdUnseenDraws(true);   // and draws what is on screen first, the rest a slice per task (scheduler.js)
    const specs = section === 'all' ? SECTIONS : [sectionById(section)];
    // What an edit updates: the sections in page order and the editor (its preview of the weights).
    // Only the first section is built now, for the first screen; each other one is built in a task of
    // its own by the first pass (recompute), in a slot that holds its place, so no task at load grows long.
    const editor = section !== 'temperature' ? editorPanel(ctx) : null;
    const firstSection = specs[0].build(ctx);
    await nextTask();
    if (generation !== this.generation) { deferMath(-1); holdUnseenDraws(false); return; }
    this.useLanguage();
    // (the editor after the first section: that one's first update brings the first numbers, and the
    // editor starts closed)
    const sections = [firstSection, ...(editor ? [editor] : [])];
    const unbuilt = specs.slice(1).map((spec) => ({ spec, slot: document.createComment(spec.id) }));
    const buildNext = () => {
      this.useLanguage();
      const { spec, slot } = unbuilt.shift();
      const s = spec.build(ctx);
      slot.replaceWith(s.el);
      renderMath(s.el);
      sections.push(s);
      nearWatch?.watch(s.el);
    };
    // Which sections are on the screen or within one screen of it; one that comes near while it is
    // behind the latest edit is brought up to date in the next frame. Not during the first pass: the
    // observer's first report names every near section at once, and updating them all in one frame
    // made a 50-80 ms task at load. (No IntersectionObserver: all.)
    const near = new Set();
    const sectionOf = (el) => sections.find((s) => s.el === el);
    this.nearWatch?.stop();
    const nearWatch = this.nearWatch = sections.length + unbuilt.length > 1 ? watchNear((el) => {
      const s = sectionOf(el);
      near.add(s);
      if (shows.get(s) !== edits && !loading) nextFrame().then(() => updateSection(s));
    }, (el) => near.delete(sectionOf(el))) : null;
    if (nearWatch) for (const s of sections) nearWatch.watch(s.el);
    const isNear = (s) => !nearWatch || near.has(s);   // nothing tells what is near: every section is
    loadingLine.remove();
    lab.hidden = false;
    if (editor) lab.append(editor.el);
    lab.append(status, ...sections.filter((s) => s !== editor).map((s) => s.el), ...unbuilt.map((u) => u.slot), ...(ctx.learn.bar ? [ctx.learn.bar] : []),
      h('footer', { class: 'footer' }, h('p', { 'data-testid': 'engine-footer', text: t('page.engineFooter', { engine: ENGINES.get(kind) || kind }) })));
    renderMath(lab);
    const done = ctx.recompute();
    this.settleBuildWaiters(done);
    // index.html#temperature: scroll to the section once it has its content (the whole page only)
    this.fragment?.stop();
    this.fragment = section === 'all' ? followFragment(this.shadowRoot) : null;
    done.then(() => { if (generation === this.generation && this.fragment) this.fragment.go(); });
  }
}

// AttentionLab.configure({base, allowBases}): the folder of attention-lab's files (engine/, katex-lib.js,
// katex/) for every element on the page, for when a bundler moved attention-lab.js away from them, and
// the other origins' folders an engine-base may name (base-url.js). Elements already shown reload from
// the new base (an engine-base attribute still wins for its element; one refused loads once allowBases
// allows it).
const connected = new Set();
function configure(options = {}) {
  configureBases(options);
  for (const el of connected) {
    // an element showing a sentence (a refused engine-base) tries again once allowBases changed
    const own = el.hasAttribute('engine-base'), refused = Boolean(el.shadowRoot.querySelector('[data-testid=lab-error]'));
    if (el.started && (own ? options.allowBases !== undefined && refused : options.base !== undefined)) el.render();
  }
  return { base: defaultBase() };
}

if (typeof customElements !== 'undefined' && !customElements.get('attention-lab')) {
  useScheduler(viewScheduler);   // the drawing views draw, measure and wait for frames through the page's scheduler
  useExportState({ sectionHtml, permalink });   // and save their section as a file, or link to its state
  defineHostProperties(AttentionLabElement.prototype);
  customElements.define('attention-lab', AttentionLabElement);
  // a catalogue registered for a language an element speaks (or falls back from) shows at once
  onRegistered(() => { for (const el of connected) if (el.started) { el.language = null; el.updateComplete = el.visibleUpdateComplete = el.nextBuild(); el.render(); } });
  self.AttentionLab = Object.freeze({ configure, registerTranslation, translator, version: VERSION });
}
