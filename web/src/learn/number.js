// A typed answer as a number: "+0.5", "1.8524", "2 360 064" and "2,360,064" (the form the page writes
// its counts in: exercise 3.3's 2,360,064). A comma counts only as a thousands separator (groups of
// three digits), so "1,5" is NaN, not 15: the prompt then asks for a decimal point.
export function parseAnswer(text) {
  let t = text.trim().replace(/^\+/, '').replace(/\s+/g, '');
  if (t.includes(',')) {
    if (!/^-?\d{1,3}(,\d{3})+(\.\d*)?$/.test(t)) return NaN;
    t = t.replace(/,/g, '');
  }
  return t === '' ? NaN : Number(t);
}
