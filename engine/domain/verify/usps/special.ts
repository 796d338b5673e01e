// Delivery lines that are not "number + street" (Pub 28 sections 24x and 25x):
// PO boxes, rural routes, highway contract routes, military boxes and general delivery.

import type { AddressKind } from './types';

export interface SpecialLine {
  kind: Exclude<AddressKind, 'street'>;
  /** Fixed part printed before the box number ("PO BOX", "RR 2 BOX"). */
  street_name: string;
  /** Box number, empty when the line has none. */
  primary_number: string;
  /** Index of the first word after the match. */
  end: number;
}

const MILITARY_CITIES = new Set(['APO', 'FPO', 'DPO']);
const SHIP_PREFIXES = new Set(['USS', 'USNS', 'USCGC', 'USNV']);

export function isMilitaryCity(word: string): boolean {
  return MILITARY_CITIES.has(word);
}

// A box or route "number": digits, letters with digits, or a single letter ("BOX A").
function isBoxNumber(w: string | undefined): w is string {
  if (w === undefined) return false;
  return /^[0-9][0-9A-Z-]*$/.test(w) || /^[A-Z]\d+[A-Z]?$/.test(w) || /^[A-Z]$/.test(w);
}

/** Number of words at `i` spelling a PO box prefix ("PO BOX", "P O BOX", "POST OFFICE BOX", "POB"). */
function poBoxWords(w: readonly string[], i: number): number {
  const seqs: readonly (readonly string[])[] = [
    ['POST', 'OFFICE', 'BOX'],
    ['POST', 'OFFICE', 'DRAWER'],
    ['POST', 'BOX'],
    ['P', 'O', 'BOX'],
    ['P', 'O', 'B'],
    ['PO', 'BOX'],
    ['PO', 'BX'],
    ['PO', 'DRAWER'],
    ['PO', 'DRAWR'],
    ['POB'],
    ['BOX'],
    ['DRAWER'],
    ['LOCKBOX'],
    ['PO', 'LOCKBOX'],
  ];
  for (const s of seqs) if (s.every((part, k) => w[i + k] === part)) return s.length;
  return 0;
}

function skipHash(w: readonly string[], i: number): number {
  return w[i] === '#' ? i + 1 : i;
}

/** "BOX 152" after a route: returns [box number, index after it] or undefined. */
function boxAfter(w: readonly string[], i: number): [string, number] | undefined {
  if (w[i] !== 'BOX' && w[i] !== 'BX') return undefined;
  const j = skipHash(w, i + 1);
  return isBoxNumber(w[j]) ? [w[j], j + 1] : undefined;
}

function routeLine(
  kind: 'rural_route' | 'highway_contract',
  code: string,
  w: readonly string[],
  i: number,
  boxRequired: boolean,
): SpecialLine | undefined {
  const j = skipHash(w, i);
  const route = isBoxNumber(w[j]) && /\d/.test(w[j]) ? w[j] : '';
  const afterRoute = route ? j + 1 : j;
  const box = boxAfter(w, afterRoute);
  if (!box && (boxRequired || !route)) return undefined;
  const name = [code, route, box ? 'BOX' : ''].filter((p) => p !== '').join(' ');
  return { kind, street_name: name, primary_number: box ? box[0] : '', end: box ? box[1] : afterRoute };
}

/**
 * Recognizes a special delivery line starting at word `i`.
 * `militaryContext` admits ship names ("USS OHIO"), which only make sense with APO/FPO/DPO.
 */
export function matchSpecial(w: readonly string[], i: number, militaryContext: boolean): SpecialLine | undefined {
  const first = w[i];
  if (first === undefined) return undefined;

  if (first === 'GENERAL' && (w[i + 1] === 'DELIVERY' || w[i + 1] === 'DEL')) {
    return { kind: 'general_delivery', street_name: 'GENERAL DELIVERY', primary_number: '', end: i + 2 };
  }

  const po = poBoxWords(w, i);
  if (po > 0) {
    const j = skipHash(w, i + po);
    // A bare "BOX" only counts when a number follows, and not in "BOX ELDER RD"-like names.
    if (isBoxNumber(w[j])) return { kind: 'po_box', street_name: 'PO BOX', primary_number: w[j], end: j + 1 };
    return undefined;
  }

  // Rural routes: RR, R R, RURAL ROUTE, RFD; "ROUTE 2 BOX 5" only with its box.
  if (first === 'RR' || first === 'RFD') return routeLine('rural_route', 'RR', w, i + 1, false);
  if (first === 'R' && w[i + 1] === 'R') return routeLine('rural_route', 'RR', w, i + 2, false);
  if (first === 'R' && w[i + 1] === 'F' && w[i + 2] === 'D') return routeLine('rural_route', 'RR', w, i + 3, false);
  if (first === 'RURAL' && ['ROUTE', 'RT', 'RTE'].includes(w[i + 1]))
    return routeLine('rural_route', 'RR', w, i + 2, false);
  if (['ROUTE', 'RT', 'RTE'].includes(first)) return routeLine('rural_route', 'RR', w, i + 1, true);

  // Highway contract routes; Pub 28 replaced "STAR ROUTE" and "HCR" with HC.
  if (first === 'HC' || first === 'HCR') return routeLine('highway_contract', 'HC', w, i + 1, false);
  if (first === 'HIGHWAY' && w[i + 1] === 'CONTRACT') {
    const k = w[i + 2] === 'ROUTE' ? i + 3 : i + 2;
    return routeLine('highway_contract', 'HC', w, k, false);
  }
  if (first === 'STAR' && ['ROUTE', 'RT', 'RTE'].includes(w[i + 1]))
    return routeLine('highway_contract', 'HC', w, i + 2, false);

  // Military: PSC/CMR/UNIT nnnn BOX nnnn.
  if ((first === 'PSC' || first === 'CMR' || first === 'UNIT') && /^\d+$/.test(w[i + 1] ?? '')) {
    const box = boxAfter(w, i + 2);
    if (box) return { kind: 'military', street_name: `${first} ${w[i + 1]} BOX`, primary_number: box[0], end: box[1] };
    if (first !== 'UNIT' && militaryContext) {
      return { kind: 'military', street_name: `${first} ${w[i + 1]}`, primary_number: '', end: i + 2 };
    }
  }

  if (militaryContext && SHIP_PREFIXES.has(first)) {
    let j = i + 1;
    while (j < w.length && !MILITARY_CITIES.has(w[j])) j++;
    return { kind: 'military', street_name: w.slice(i, j).join(' '), primary_number: '', end: j };
  }
  return undefined;
}
