// The learner's number: digits with a decimal point, an optional sign (+ or −), thousands grouped by
// commas or spaces in threes ("2,360,064", "2 360 064"), an exponent. Returns {value} or {error}: a
// sentence saying what to write instead (a decimal comma is refused, never guessed).
import { t as tr } from '../i18n/index.js';

const SPACES = /[\s\u00a0\u2009\u202f]/g;
export function parseAnswerNumber(raw) {
  const text = String(raw).trim();
  const shown = text.length > 30 ? `${text.slice(0, 30)}…` : text;
  if (text === '') return { error: tr('number.empty') };
  let t = text.replace(/^[−–]/, '-').replace(/^\+/, '');
  const sign = t.startsWith('-') ? '-' : '';
  t = t.slice(sign.length);
  const [intPart, ...rest] = t.split(/(?=[.eE])/);
  const tail = rest.join('');
  const hasComma = intPart.includes(','), hasSpace = /[\s\u00a0\u2009\u202f]/.test(intPart);
  if (hasComma && hasSpace) return { error: tr('number.mixed', { text: shown }) };
  let digits = intPart;
  if (hasComma || hasSpace) {
    const sep = hasComma ? ',' : ' ';
    const groups = intPart.replace(SPACES, ' ').split(sep);
    if (!/^\d{1,3}$/.test(groups[0]) || !groups.slice(1).every((g) => /^\d{3}$/.test(g))) {
      if (hasComma && groups.length === 2 && /^\d+$/.test(groups[0]) && /^\d+$/.test(groups[1])) {
        return { error: tr('number.ambiguous', { text: shown, fraction: `${groups[0]}.${groups[1]}` }) };
      }
      return { error: hasComma ? tr('number.badCommas', { text: shown }) : tr('number.badSpaces', { text: shown }) };
    }
    digits = groups.join('');
  }
  const plain = `${sign}${digits}${tail}`;
  if (!/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(plain)) {
    return { error: tr('number.notNumber', { text: shown }) };
  }
  const value = Number(plain);
  if (!Number.isFinite(value)) return { error: tr('number.tooLarge', { text: shown }) };
  return { value };
}
