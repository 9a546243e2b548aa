// The editor's size changes, without a browser: resizeState keeps every value it can at its row and
// column, fills what is new with 0 (new words token7, ...), and drops from the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resizeState } from '../../web/src/inputs.js';

const state = { words: ['a', 'b'], inputs: [1, 2, 3, 4, 5, 6], tokens: 2, d_in: 3, seed: 7, d_out: 2 };

test('adding a token and a dimension keeps the values in place and adds 0s', () => {
  const r = resizeState(state, 3, 4);
  assert.deepEqual(r.inputs, [1, 2, 3, 0, 4, 5, 6, 0, 0, 0, 0, 0]);
  assert.deepEqual(r.words, ['a', 'b', 'token3']);
  assert.equal(r.tokens, 3);
  assert.equal(r.d_in, 4);
  assert.equal(r.seed, 7, 'the rest of the state is kept');
  assert.deepEqual(state.inputs, [1, 2, 3, 4, 5, 6], 'the old state is not changed');
});

test('removing drops the last token and the last dimension', () => {
  assert.deepEqual(resizeState(state, 2, 1).inputs, [1, 4]);
  const one = resizeState(resizeState(state, 3, 3), 2, 3);
  assert.deepEqual(one.inputs, state.inputs);
  assert.deepEqual(one.words, ['a', 'b']);
});
