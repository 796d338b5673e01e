// The delivery line: urbanization prefix, then a special line (PO box, RR, HC, military,
// general delivery) or house number + street, then units and PMB.

import { readUnit, readUnits, findUnit, type UnitRef } from './secondary';
import { matchSpecial } from './special';
import { parseStreetWords, readHouseNumber, streetEnd, type StreetParts } from './street';
import { isHouseNumber } from './text';
import type { AddressKind } from './types';

export interface DeliveryLine extends StreetParts {
  kind: AddressKind;
  primary_number: string;
  urbanization: string;
  units: UnitRef[];
  pmb: UnitRef | undefined;
  /** Words after the delivery line that were not units (the city, in a one-line address). */
  rest: string[];
  /** Whether the line started with a house number or a special form. */
  recognized: boolean;
}

const URB_WORDS = new Set(['URB', 'URBANIZACION', 'URBANIZATION']);

/** "URB LAS GLADIOLAS" up to the house number, unit or special line that follows it. */
export function readUrbanization(w: readonly string[], i: number): { urbanization: string; end: number } | undefined {
  if (!URB_WORDS.has(w[i] ?? '')) return undefined;
  let j = i + 1;
  while (j < w.length && !isHouseNumber(w[j]) && !readUnit(w, j, false) && !matchSpecial(w, j, false)) j++;
  if (j === i + 1) return undefined;
  return { urbanization: ['URB', ...w.slice(i + 1, j)].join(' '), end: j };
}

function emptyLine(): DeliveryLine {
  return {
    kind: 'street',
    primary_number: '',
    street_predirection: '',
    street_name: '',
    street_suffix: '',
    street_postdirection: '',
    urbanization: '',
    units: [],
    pmb: undefined,
    rest: [],
    recognized: false,
  };
}

export interface DeliveryOptions {
  /** APO/FPO/DPO or an AA/AE/AP state is present: ship names are delivery lines. */
  military: boolean;
  /**
   * The words run on into the city (a one-line address without commas): find where the
   * street ends instead of treating every word as part of it.
   */
  bounded: boolean;
}

/** Parses a delivery line from its words. */
export function parseDeliveryWords(input: readonly string[], opts: DeliveryOptions): DeliveryLine {
  const out = emptyLine();
  let w = [...input];
  let i = 0;

  const urb = readUrbanization(w, i);
  if (urb) {
    out.urbanization = urb.urbanization;
    i = urb.end;
  }

  // "APT 4 123 MAIN ST": a unit written before the street moves behind it.
  const lead = matchSpecial(w, i, opts.military) ? undefined : readUnits(w, i, false);
  if (
    lead &&
    lead.units.length + (lead.pmb ? 1 : 0) > 0 &&
    lead.end < w.length &&
    (isHouseNumber(w[lead.end]) || matchSpecial(w, lead.end, opts.military))
  ) {
    w = [...w.slice(0, i), ...w.slice(lead.end)];
    out.units.push(...lead.units);
    out.pmb = lead.pmb;
  }

  const special = matchSpecial(w, i, opts.military);
  let end: number;
  if (special) {
    out.kind = special.kind;
    out.street_name = special.street_name;
    out.primary_number = special.primary_number;
    out.recognized = true;
    end = special.end;
  } else {
    const house = readHouseNumber(w, i);
    out.primary_number = house.primary_number;
    out.recognized = house.primary_number !== '';
    if (opts.bounded) {
      end = streetEnd(w, house.end);
    } else {
      const unitAt = findUnit(w, house.end + 1);
      end = unitAt >= 0 ? unitAt : w.length;
    }
    Object.assign(out, parseStreetWords(w.slice(house.end, end)));
  }

  // Units right after the street; in a bounded line a bare REAR could be the city's first word.
  const units = readUnits(w, end, !opts.bounded);
  out.units.push(...units.units);
  if (units.pmb && !out.pmb) out.pmb = units.pmb;
  out.rest = w.slice(units.end);
  return out;
}
