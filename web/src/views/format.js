// Number text for the views. The page passes the engine's own texts (its float_text, the shortest
// round-trip decimal); shortestFloat32 is only the fallback when a caller has none. pythonFixed writes
// every number shown with a fixed count of decimals.

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

// Python's '%.<decimals>f' of the float32 nearest v (PyTorch's prints and f"{loss:.4f}" both write it):
// the float32's exact binary value rounded half to even, so 94207.4375 stays 94207.4375 (the shortest
// text, 94207.44, would give 94207.4400) and 0.03125 gives 0.0312 (toFixed rounds ties away from 0).
// 'nan', 'inf', '-inf' as Python spells them. The one home of fixed-decimal number text on the page.
export function pythonFixed(v, decimals) {
  const f = Math.fround(v);
  if (Number.isNaN(f)) return 'nan';
  if (!Number.isFinite(f)) return f > 0 ? 'inf' : '-inf';
  if (!(Number.isInteger(decimals) && decimals >= 0 && decimals <= 12)) throw new RangeError('decimals: 0 to 12');
  // exact: a float32 has 24 significant bits and 10^d = 2^d·5^d needs ≤ 28 more, within a double's 53
  const scaled = Math.abs(f) * 10 ** decimals;
  let n = Math.floor(scaled);
  const rest = scaled - n;   // exact too
  if (rest > 0.5 || (rest === 0.5 && n % 2 === 1)) n += 1;
  const digits = BigInt(n).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals), frac = digits.slice(digits.length - decimals);
  return `${f < 0 || Object.is(f, -0) ? '-' : ''}${whole}${decimals ? `.${frac}` : ''}`;
}

// A value with a fixed number of decimals for running text, as the book writes them ("0.3061"): Python's
// rounding (pythonFixed), with a true minus sign, and −0 as 0.
export function fixed(v, decimals) {
  const text = pythonFixed(v, decimals);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : text.replace('-', '−');
}
