// The learner's number: digits with a decimal point, an optional sign (+ or −), thousands grouped by
// commas or spaces in threes ("2,360,064", "2 360 064"), an exponent. Returns {value} or {error}: a
// sentence saying what to write instead (a decimal comma is refused, never guessed).
const SPACES = /[\s\u00a0\u2009\u202f]/g;
export function parseAnswerNumber(raw) {
  const text = String(raw).trim();
  const shown = text.length > 30 ? `${text.slice(0, 30)}…` : text;
  if (text === '') return { error: 'Type a number first, or press “Just show me”.' };
  let t = text.replace(/^[−–]/, '-').replace(/^\+/, '');
  const sign = t.startsWith('-') ? '-' : '';
  t = t.slice(sign.length);
  const [intPart, ...rest] = t.split(/(?=[.eE])/);
  const tail = rest.join('');
  const hasComma = intPart.includes(','), hasSpace = /[\s\u00a0\u2009\u202f]/.test(intPart);
  if (hasComma && hasSpace) return { error: `“${shown}” mixes commas and spaces between its digits; group thousands one way, e.g. 2,360,064 or 2 360 064.` };
  let digits = intPart;
  if (hasComma || hasSpace) {
    const sep = hasComma ? ',' : ' ';
    const groups = intPart.replace(SPACES, ' ').split(sep);
    if (!/^\d{1,3}$/.test(groups[0]) || !groups.slice(1).every((g) => /^\d{3}$/.test(g))) {
      if (hasComma && groups.length === 2 && /^\d+$/.test(groups[0]) && /^\d+$/.test(groups[1])) {
        return { error: `“${shown}” is ambiguous: is the comma a decimal comma or a thousands separator? Write a decimal point for a fraction (e.g. ${groups[0]}.${groups[1]}), and group thousands in threes (e.g. 2,360,064).` };
      }
      return { error: `“${shown}” is not a number I can read: ${hasComma ? 'a comma' : 'a space'} may only group the digits in threes (e.g. 2,360,064), and a decimal point marks a fraction (e.g. 0.5).` };
    }
    digits = groups.join('');
  }
  const plain = `${sign}${digits}${tail}`;
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(plain)) {
    return { error: `“${shown}” is not a number; write it with digits and a decimal point, e.g. 0.5.` };
  }
  const value = Number(plain);
  if (!Number.isFinite(value)) return { error: `“${shown}” is too large to be an answer here.` };
  return { value };
}
