// Number text for the views. The page passes the engine's own texts (its float_text, the shortest
// round-trip decimal); shortestFloat32 is only the fallback when a caller has none.

// The shortest decimal that reads back as the same float32 (e.g. 0.2961, not 0.29610000550746918).
export function shortestFloat32(v) {
  const f = Math.fround(v);
  if (Number.isNaN(f)) return 'nan';
  if (!Number.isFinite(f)) return f > 0 ? 'inf' : '-inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  for (let digits = 1; digits <= 9; digits++) {
    const text = f.toPrecision(digits);
    if (Math.fround(Number(text)) === f) return String(Number(text));   // Number(): 1.50 -> 1.5, 1e+2 -> 100
  }
  return String(f);   // not reached: 9 significant digits always read back
}

// A value with a fixed number of decimals, as the book writes them ("0.3061"); −0 prints as 0.
export function fixed(v, decimals) {
  if (Number.isNaN(v)) return 'nan';
  if (!Number.isFinite(v)) return v > 0 ? 'inf' : '−inf';
  const text = Number(v).toFixed(decimals);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text.replace('-', '−');
}
