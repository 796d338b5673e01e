// Secondary units ("APT 4", "STE 200", "# 4", "REAR", "2ND FLOOR") and private mailboxes
// ("PMB 456") read from a run of words.

import { streetSuffix } from './suffixes';
import { isUnitNumber } from './text';
import { pmbWords, unitDesignator, unitNeedsNumber } from './units';

export interface UnitRef {
  designator: string;
  number: string;
}

export interface UnitRead extends UnitRef {
  pmb: boolean;
  end: number;
}

/**
 * Reads one unit or PMB at word `i`. A designator that needs no number (REAR, PH) is only
 * accepted alone when `bareOk` says the position makes it unambiguous, since the same words
 * start street names ("1 LOWER SIDE RD").
 */
export function readUnit(w: readonly string[], i: number, bareOk: boolean): UnitRead | undefined {
  const word = w[i];
  if (word === undefined) return undefined;

  // "2ND FLOOR" -> FL 2
  const ordinal = /^(\d+)(ST|ND|RD|TH)$/.exec(word);
  if (ordinal && unitDesignator(w[i + 1] ?? '') === 'FL') {
    return { designator: 'FL', number: ordinal[1], pmb: false, end: i + 2 };
  }

  const pmb = pmbWords(w, i);
  if (pmb > 0) {
    const j = w[i + pmb] === '#' ? i + pmb + 1 : i + pmb;
    if (isUnitNumber(w[j])) return { designator: 'PMB', number: w[j], pmb: true, end: j + 1 };
    return undefined;
  }

  const designator = unitDesignator(word);
  if (designator === undefined) return undefined;
  // "APT # 4" and "# 4" both carry the number after the pound sign.
  const j = designator !== '#' && w[i + 1] === '#' ? i + 2 : i + 1;
  if (isUnitNumber(w[j])) return { designator, number: w[j], pmb: false, end: j + 1 };
  // "123 MAIN ST APT" (number missing) keeps its designator so a verifier can ask for it;
  // TRLR and KEY are left alone there because they are street suffixes too.
  if (w[i + 1] === undefined && designator !== '#' && streetSuffix(word) === undefined) {
    return { designator, number: '', pmb: false, end: i + 1 };
  }
  if (!unitNeedsNumber(designator)) {
    const next = w[i + 1];
    const followedByUnit = next !== undefined && readUnit(w, i + 1, true) !== undefined;
    if (bareOk || next === undefined || followedByUnit) return { designator, number: '', pmb: false, end: i + 1 };
  }
  return undefined;
}

export interface UnitsRead {
  units: UnitRef[];
  pmb: UnitRef | undefined;
  end: number;
}

/** Reads consecutive units and at most one PMB starting at `i`. */
export function readUnits(w: readonly string[], i: number, bareOk: boolean): UnitsRead {
  const units: UnitRef[] = [];
  let pmb: UnitRef | undefined;
  let at = i;
  for (;;) {
    const u = readUnit(w, at, bareOk);
    if (!u || (u.pmb && pmb)) break;
    if (u.pmb) pmb = { designator: u.designator, number: u.number };
    else units.push({ designator: u.designator, number: u.number });
    at = u.end;
  }
  return { units, pmb, end: at };
}

/** First index >= `from` where a unit or PMB starts, or -1. */
export function findUnit(w: readonly string[], from: number, to: number = w.length): number {
  for (let i = from; i < to; i++) if (readUnit(w, i, false)) return i;
  return -1;
}
