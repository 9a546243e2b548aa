// The export menu's texts without a browser (web/src/views/export-format.js): the CSV's quoting and its
// formula guard, Python float literals, the torch.tensor layout, the legend's stops and the scene's SVG.
// export-replay.test.js runs the same texts through PyTorch from the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvText, pythonFloat, torchLiteral, rgbStops, svgFromScene } from '../../web/src/views/export-format.js';

test('CSV: a head row, labelled rows of the engine\'s texts, quoted and guarded labels, CRLF', () => {
  const text = csvText({ shape: [2, 2], texts: ['0.1', '-inf', '1e-07', '3'], rowLabels: ['New York', '=cmd'], colLabels: ['d1', 'say "hi", then'], rowName: 'token', colName: 'dimension' });
  assert.equal(text, 'token \\ dimension,d1,"say ""hi"", then"\r\nNew York,0.1,-inf\r\n\'=cmd,1e-07,3\r\n');
  assert.equal(csvText({ shape: [3], texts: ['1', '2', '3'] }), 'row \\ column,1,2,3\r\n1,1,2,3\r\n');
});

test('Python floats: integers get their point, nan and the infinities are float(...), anything else is refused', () => {
  assert.deepEqual(['1', '-0', '0.25', '1e-07', '-3.5e+20', 'nan', '-inf', 'inf'].map(pythonFloat),
    ['1.', '-0.', '0.25', '1e-07', '-3.5e+20', "float('nan')", "float('-inf')", "float('inf')"]);
  for (const bad of ['1,5', '__import__("os")', '', '0x10']) assert.throws(() => pythonFloat(bad), /is not a number/);
});

test('torch.tensor literals: 1-D on one line, 2-D a row per line aligned as PyTorch prints', () => {
  assert.equal(torchLiteral({ shape: [3], texts: ['1', '0.5', '-inf'] }), "torch.tensor([1., 0.5, float('-inf')])");
  assert.equal(torchLiteral({ shape: [2, 2], texts: ['0.4306', '1', '2', '3'] }), 'torch.tensor([[0.4306, 1.],\n              [2., 3.]])');
});

test('the legend\'s gradient stops, and a scene as SVG with each cell\'s place and colour', () => {
  assert.deepEqual(rgbStops('linear-gradient(to right, rgb(253, 231, 37) 0%, rgb(68, 1, 84) 100%)'), [['rgb(253, 231, 37)', 0], ['rgb(68, 1, 84)', 1]]);
  const svg = svgFromScene({ width: 100, height: 50, background: 'rgb(255, 255, 255)', items: [
    { type: 'rect', x: 1, y: 2, w: 30, h: 20, radius: 2, fill: 'rgb(1, 2, 3)', row: 0, col: 1 },
    { type: 'ramp', x: 0, y: 30, w: 100, h: 6, stops: [['rgb(0, 0, 0)', 0], ['rgb(9, 9, 9)', 1]] },
    { type: 'text', x: 3, y: 15, text: '<0.5 & 1>', fill: 'rgb(0, 0, 0)', size: 12.5, weight: '400', style: 'normal', family: '"DejaVu Sans", sans-serif' }] });
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="100" height="50" viewBox="0 0 100 50">/);
  assert.match(svg, /<rect x="1" y="2" width="30" height="20" rx="2" fill="rgb\(1, 2, 3\)" data-row="0" data-col="1"\/>/);
  assert.match(svg, /<stop offset="1" stop-color="rgb\(9, 9, 9\)"\/>/);
  assert.match(svg, /font-family="&quot;DejaVu Sans&quot;, sans-serif"[^>]*>&lt;0.5 &amp; 1&gt;<\/text>/);
});
