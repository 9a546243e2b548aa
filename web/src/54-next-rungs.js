// Sections "causal" (§3.5) and "multi-head" (§3.6): the mask by both routes, dropout with the book's
// masks, CausalAttention, the wrapper and MultiHeadAttention, and exercise 3.3 timed in a Worker.

function causalSection(ctx) {
  const { el, body } = sectionFrame('causal', 'Rung 3 — causal attention (§3.5)');
  function update(R) {
    const cells = R.chapter;   // the chapter's cells for the learner's inputs
    const st = R.state;
    if (cells.error) {
      body.replaceChildren(errorNote(cells.error));
      return;
    }
    const c = (id) => cellLine(cells.get(id));
    body.replaceChildren(
      para('A language model predicts the next token, so token i may only attend to tokens 1…i. The cells below run on your inputs with the book’s SelfAttention_v2 (seed 789), as §3.5 does.'),
      codeCell('queries = sa_v2.W_query(inputs)\nkeys = sa_v2.W_key(inputs)\nattn_scores = queries @ keys.T\nattn_weights = torch.softmax(attn_scores / keys.shape[-1]**0.5, dim=-1)\nprint(attn_weights)', c('3.5.1/attn_weights'), { cell: '3.5.1/attn_weights' }),
      h('h3', { text: 'Route 1: zero the future, then renormalise' }),
      codeCell('context_length = attn_scores.shape[0]\nmask_simple = torch.tril(torch.ones(context_length, context_length))\nprint(mask_simple)', c('3.5.1/mask_simple'), { cell: '3.5.1/mask_simple' }),
      codeCell('masked_simple = attn_weights*mask_simple\nprint(masked_simple)', c('3.5.1/masked_simple'), { cell: '3.5.1/masked_simple' }),
      codeCell('row_sums = masked_simple.sum(dim=-1, keepdim=True)\nmasked_simple_norm = masked_simple / row_sums\nprint(masked_simple_norm)', c('3.5.1/masked_simple_norm'), { cell: '3.5.1/masked_simple_norm' }),
      h('h3', { text: 'Route 2: −∞ before softmax (one step, same result)' }),
      codeCell('mask = torch.triu(torch.ones(context_length, context_length), diagonal=1)\nmasked = attn_scores.masked_fill(mask.bool(), -torch.inf)\nprint(masked)', c('3.5.1/masked'), { cell: '3.5.1/masked' }),
      codeCell('attn_weights = torch.softmax(masked / keys.shape[-1]**0.5, dim=1)\nprint(attn_weights)', c('3.5.1/attn_weights_causal'), { cell: '3.5.1/attn_weights_causal' }),
      h('p', { class: cells.get('3.5.1/attn_weights_causal').print.split('grad_fn')[0] === cells.get('3.5.1/masked_simple_norm').print.split('grad_fn')[0] ? 'match' : 'note error',
        text: 'Both routes print the same weights: the −∞ entries become exactly 0 after softmax, and the softmax already sums to 1 over the visible tokens.' }),
      h('h3', { text: 'Dropout, with the book’s masks' }),
      para('Dropout with p = 0.5 zeroes about half the entries and scales the survivors by 1/(1−p) = 2. After torch.manual_seed(123) the engine draws exactly PyTorch’s mask:'),
      codeCell('torch.manual_seed(123)\ndropout = torch.nn.Dropout(0.5)\nexample = torch.ones(6, 6)\nprint(dropout(example))', c('3.5.2/dropout_ones'), { cell: '3.5.2/dropout_ones' }),
      codeCell('torch.manual_seed(123)\nprint(dropout(attn_weights))', c('3.5.2/dropout_attn_weights'), { cell: '3.5.2/dropout_attn_weights' }),
      h('h3', { text: 'CausalAttention, on your inputs' }),
      listing('Listing 3.3 — a compact causal attention class', LISTING_3_3),
      codeCell(`batch = torch.stack((inputs, inputs), dim=0)\nprint(batch.shape)`, `torch.Size([2, ${R.tokens}, ${R.d_in}])`, { cell: '3.5.3/batch.shape' }),
      h('div', { class: 'cell' }, h('pre', { class: 'code' }, h('code', { text: `torch.manual_seed(${st.seed})\ncontext_length = batch.shape[1]\nca = CausalAttention(d_in, d_out=${st.d_out}, context_length, 0.0)\ncontext_vecs = ca(batch)\nprint(context_vecs)` })),
        R.ca.error ? errorNote(R.ca.error) : h('pre', { class: 'out', 'data-cell': '3.5.3/context_vecs', text: R.ca.print })),
    );
  }
  return { el, update };
}

const MHA_TOKENS = [128, 256, 512, 1024];

function multiHeadSection(ctx) {
  const { el, body } = sectionFrame('multi-head', 'Rung 4 — multi-head attention (§3.6)');
  const timing = h('div', { class: 'timing' });
  const timingRows = h('tbody');
  const timingStatus = h('p', { class: 'hint', role: 'status', 'data-testid': 'mha-status' });
  const timingOut = h('pre', { class: 'out', 'data-testid': 'mha-output' });
  const tokensSelect = h('select', { id: uid('mha-t') }, MHA_TOKENS.map((t) => h('option', { value: String(t), text: String(t), selected: t === 256 })));
  const runBtn = h('button', { type: 'button', 'data-testid': 'mha-run', text: 'Run in a Web Worker' });
  const runAllBtn = h('button', { type: 'button', 'data-testid': 'mha-run-all', text: `Run T = ${MHA_TOKENS.join(', ')}` });
  let worker = null, queue = [], busy = false;
  const times = new Map();

  timing.append(h('h3', { text: 'Exercise 3.3 — GPT-2 small, live' }),
    para('GPT-2 small has 12 heads, d_in = d_out = 768 and a context of 1024 tokens. The engine runs this module off the main thread; the time is the forward pass alone. The score matrix has T × T entries per head, so doubling T roughly quadruples the attention part of the work.'),
    h('div', { class: 'controls' }, h('label', { for: tokensSelect.id, text: 'Tokens T ' }), tokensSelect, runBtn, runAllBtn),
    timingStatus,
    h('div', { class: 'scroll' }, h('table', { class: 'compare', 'data-testid': 'mha-times' }, h('caption', { text: 'Forward time of MultiHeadAttention(768, 768, 1024, 0.0, num_heads=12) on torch.rand(1, T, 768)' }),
      h('thead', null, h('tr', null, ['T', 'T²', 'time (ms)', 'vs T/2'].map((t) => h('th', { scope: 'col', text: t })))), timingRows)),
    timingOut);

  function startWorker() {
    if (worker) return worker;
    worker = startEngineWorker();
    worker.onmessage = (event) => {
      const m = event.data || {};
      busy = false;
      if (m.error) { timingStatus.textContent = `T = ${m.tokens}: ${m.error}`; queue = []; return; }
      times.set(m.tokens, m.ms);
      renderTimes();
      timingOut.textContent = `mha = MultiHeadAttention(768, 768, 1024, 0.0, num_heads=12)\nprint(mha(torch.rand(1, ${m.tokens}, 768)))\n${m.print}`;
      timingStatus.textContent = `T = ${m.tokens}: ${m.ms.toFixed(1)} ms for the forward pass.`;
      next();
    };
    worker.onerror = (e) => { e.preventDefault(); busy = false; timingStatus.textContent = `The worker failed: ${e.message || 'could not start'}`; worker = null; };
    return worker;
  }
  function next() {
    if (busy || queue.length === 0) return;
    const tokens = queue.shift();
    try { startWorker(); } catch (e) { timingStatus.textContent = e.message; queue = []; return; }
    busy = true;
    timingStatus.textContent = `Running T = ${tokens} in a Web Worker…`;
    worker.postMessage({ loaderUrl: LOADER_URL, engine: ctx.kind(), op: 'mha', tokens });
  }
  function renderTimes() {
    const sorted = [...times.keys()].sort((a, b) => a - b);
    timingRows.replaceChildren(...sorted.map((t) => {
      const ms = times.get(t), half = times.get(t / 2);
      return h('tr', null, h('td', { text: String(t) }), h('td', { text: String(t * t) }), h('td', { 'data-testid': `mha-ms-${t}`, text: ms.toFixed(1) }),
        h('td', { text: half ? `× ${(ms / half).toFixed(1)}` : '—' }));
    }));
  }
  runBtn.addEventListener('click', () => { queue.push(Number(tokensSelect.value)); next(); });
  runAllBtn.addEventListener('click', () => { queue.push(...MHA_TOKENS); next(); });

  function update(R) {
    const { cells } = ctx;
    const st = R.state;
    const live = (t, cell) => (t.error ? errorNote(t.error) : h('pre', { class: 'out', 'data-cell': cell, text: t.print }));
    const shapeOf = (t) => (t.error ? '' : `context_vecs.shape: torch.Size([${t.shape.join(', ')}])`);
    body.replaceChildren(
      para('Several causal attention heads run in parallel and their outputs are concatenated. First as a wrapper that stacks CausalAttention modules, on your inputs:'),
      listing('Listing 3.4 — a wrapper class for multi-head attention', LISTING_3_4),
      h('div', { class: 'cell' }, h('pre', { class: 'code' }, h('code', { text: `torch.manual_seed(${st.seed})\ncontext_length = batch.shape[1]\nd_in, d_out = ${R.d_in}, ${st.d_out}\nmha = MultiHeadAttentionWrapper(d_in, d_out, context_length, 0.0, num_heads=2)\ncontext_vecs = mha(batch)\nprint(context_vecs)\nprint("context_vecs.shape:", context_vecs.shape)` })),
        live(R.mha_wrapper, '3.6.1/context_vecs'), R.mha_wrapper.error ? null : h('pre', { class: 'out', text: shapeOf(R.mha_wrapper) })),
      h('h3', { text: 'Exercise 3.2 — two-dimensional embedding vectors' }),
      para('Each head outputs d_out dimensions and the heads are concatenated, so d_out = 1 with two heads gives 2-dimensional context vectors:'),
      h('div', { class: 'cell' }, h('pre', { class: 'code' }, h('code', { text: `torch.manual_seed(${st.seed})\nmha = MultiHeadAttentionWrapper(d_in, 1, context_length, 0.0, num_heads=2)\nprint(mha(batch))` })),
        live(R.mha_wrapper_ex32, 'ex3.2/context_vecs')),
      h('h3', { text: 'MultiHeadAttention — one set of weights, split into heads' }),
      para('The efficient version projects once and splits the result into heads with view and transpose; the per-head scores are a batched product such as:'),
      codeCell('print(a @ a.transpose(2, 3))   # a: the book’s (1, 2, 3, 4) example tensor', c(cells, '3.6.2/a_at_aT'), { cell: '3.6.2/a_at_aT' }),
      listing('Listing 3.5 — an efficient multi-head attention class', LISTING_3_5),
      h('div', { class: 'cell' }, h('pre', { class: 'code' }, h('code', { text: `torch.manual_seed(${st.seed})\nbatch_size, context_length, d_in = batch.shape\nd_out = ${st.d_out}\nmha = MultiHeadAttention(d_in, d_out, context_length, 0.0, num_heads=2)\ncontext_vecs = mha(batch)\nprint(context_vecs)\nprint("context_vecs.shape:", context_vecs.shape)` })),
        live(R.mha, '3.6.2/context_vecs'), R.mha.error ? null : h('pre', { class: 'out', text: shapeOf(R.mha) })),
      codeCell('mha = MultiHeadAttention(768, 768, 1024, 0.0, num_heads=12)\nprint(sum(p.numel() for p in mha.parameters()))', c(cells, 'ex3.3/num_params'), { cell: 'ex3.3/num_params' }),
      timing);
  }
  const c = (cells, id) => cellLine(cells.get(id));
  return { el, update };
}
