// Check amounts in figures and in words, the two forms a bank compares (legal and courtesy amount).

// prettier-ignore
const ONES = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** 0..999 in words, hyphenating the tens ("thirty-four"), no "and". */
function hundreds(n: number): string {
  const parts: string[] = [];
  const h = Math.floor(n / 100);
  const rest = n % 100;
  if (h > 0) parts.push(`${ONES[h]} hundred`);
  if (rest > 0 || h === 0) {
    if (rest < 20) parts.push(ONES[rest]);
    else parts.push(TENS[Math.floor(rest / 10)] + (rest % 10 ? `-${ONES[rest % 10]}` : ''));
  }
  return parts.join(' ');
}

/** Whole cents of an amount in dollars, rounding away binary fractions (22.3 -> 2230). */
export const centsOf = (amount: number): number => Math.round(amount * 100);

/** "One thousand two hundred thirty-four and 56/100 dollars", for 0 to 999,999.99. */
export function amountInWords(amount: number): string {
  const cents = centsOf(amount);
  if (!Number.isFinite(amount) || cents < 0 || cents > 99_999_999)
    throw new RangeError(`check amount out of range: ${amount}`);
  const dollars = Math.floor(cents / 100);
  const thousands = Math.floor(dollars / 1000);
  const words = [
    thousands > 0 ? `${hundreds(thousands)} thousand` : '',
    dollars % 1000 || !thousands ? hundreds(dollars % 1000) : '',
  ]
    .filter((w) => w !== '')
    .join(' ');
  const fraction = String(cents % 100).padStart(2, '0');
  return `${words[0].toUpperCase()}${words.slice(1)} and ${fraction}/100 dollars`;
}

/** "$1,234.56", grouped by thousands. */
export function amountInFigures(amount: number): string {
  const cents = centsOf(amount);
  const dollars = Math.floor(cents / 100).toLocaleString('en-US');
  return `$${dollars}.${String(cents % 100).padStart(2, '0')}`;
}

/** The figures padded on the left with asterisks to `width` characters, so none can be written in. */
export function protectedFigures(amount: number, width = 14): string {
  const figures = amountInFigures(amount).slice(1);
  return `$${figures.padStart(width - 1, '*')}`;
}
