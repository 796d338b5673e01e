// parseUsAddress: free text or address lines in, spec-named components out.

import { parseDeliveryWords, readUrbanization, type DeliveryLine } from './delivery';
import { dropCountry, parseLastLine, parseZip, readStateBackward, readZipBackward } from './lastline';
import { readUnits, type UnitRef } from './secondary';
import { isMilitaryCity, matchSpecial } from './special';
import { isMilitaryState, stateCode } from './states';
import { cleanLine, isHouseNumber, plainWords, words, type Word } from './text';
import { emptyComponents, type AddressLinesInput, type ParsedUsAddress } from './types';

/**
 * Parses a US address given as one string ("123 main st apt 4 springfield il 62701") or as
 * lines. Never throws: what cannot be placed ends up in `unparsed`, so a verifier can decide.
 */
export function parseUsAddress(input: string | AddressLinesInput): ParsedUsAddress {
  return typeof input === 'string' ? parseOneLine(input) : parseLines(input);
}

function blank(): ParsedUsAddress {
  return { ...emptyComponents(), kind: 'street', unparsed: '' };
}

function applyDelivery(out: ParsedUsAddress, d: DeliveryLine, extraUnits: readonly UnitRef[]): string[] {
  out.kind = d.kind;
  out.primary_number = d.primary_number;
  out.street_predirection = d.street_predirection;
  out.street_name = d.street_name;
  out.street_suffix = d.street_suffix;
  out.street_postdirection = d.street_postdirection;
  if (d.urbanization) out.urbanization = d.urbanization;
  return addUnits(out, [...d.units, ...extraUnits], d.pmb);
}

function militaryContext(state: string, cityWords: readonly string[]): boolean {
  return isMilitaryState(state) || cityWords.some(isMilitaryCity);
}

function parseOneLine(text: string): ParsedUsAddress {
  const out = blank();
  const w: Word[] = words(text);
  let end = dropCountry(w);

  const zip = readZipBackward(w, end);
  if (zip && zip.start > 0) {
    out.zip_code = zip.zip_code;
    out.zip_code_plus_4 = zip.zip_code_plus_4;
    end = zip.start;
  }
  const state = readStateBackward(w, end, out.zip_code !== '');
  if (state) {
    out.state = state.state;
    end = state.start;
  }
  const body = w.slice(0, end);
  const plain = body.map((x) => x.text);
  const military = militaryContext(out.state, plain);
  const hasLastLine = out.zip_code !== '' || out.state !== '';

  // A comma before the city is the best boundary there is; the last one wins.
  let lastComma = -1;
  for (let i = 0; i < body.length - 1; i++) if (body[i].comma) lastComma = i;

  let leftovers: string[];
  if (lastComma >= 0) {
    leftovers = parseSegments(out, body.slice(0, lastComma + 1), military);
    // ", APT 4 SPRINGFIELD": units may open the city segment.
    const tail = plain.slice(lastComma + 1);
    const tailUnits = readUnits(tail, 0, false);
    leftovers.push(...addUnits(out, tailUnits.units, tailUnits.pmb));
    out.city = tail.slice(tailUnits.end).join(' ');
  } else if (hasLastLine) {
    const d = parseDeliveryWords(plain, { military, bounded: true });
    leftovers = applyDelivery(out, d, []);
    out.city = d.rest.join(' ');
  } else {
    const d = parseDeliveryWords(plain, { military, bounded: false });
    leftovers = applyDelivery(out, d, []);
    leftovers.unshift(...d.rest);
  }
  out.unparsed = leftovers.join(' ');
  if (out.kind === 'street' && military && isMilitaryCity(out.city) && out.primary_number === '') out.kind = 'military';
  return out;
}

/** Splits words at their commas. */
function segmentsOf(w: readonly Word[]): string[][] {
  const out: string[][] = [[]];
  for (const x of w) {
    out[out.length - 1].push(x.text);
    if (x.comma) out.push([]);
  }
  return out.filter((s) => s.length > 0);
}

/**
 * Comma-separated parts before the city: the first that starts a delivery line is the street;
 * the others may be an urbanization, units, or text such as a firm name.
 */
function parseSegments(out: ParsedUsAddress, w: readonly Word[], military: boolean): string[] {
  const segs = segmentsOf(w);
  let at = segs.findIndex((s) => startsDelivery(s, military));
  if (at < 0) at = 0;
  // "RR 3, BOX 45A" and "PSC 1234, BOX 5": the box belongs to the route before it.
  const next = segs[at + 1];
  if (next && (next[0] === 'BOX' || next[0] === 'BX')) {
    const joined = [...segs[at], ...next];
    const special = matchSpecial(joined, 0, military);
    if (special && special.kind !== 'po_box' && special.end > segs[at].length) segs.splice(at, 2, joined);
  }
  const d = parseDeliveryWords(segs[at], { military, bounded: false });
  const leftovers = applyDelivery(out, d, []);
  leftovers.push(...d.rest);
  segs.forEach((seg, k) => {
    if (k === at) return;
    const urb = readUrbanization(seg, 0);
    if (urb && urb.end === seg.length) {
      out.urbanization = urb.urbanization;
      return;
    }
    const units = readUnits(seg, 0, true);
    leftovers.push(...addUnits(out, units.units, units.pmb), ...seg.slice(units.end));
  });
  return leftovers;
}

/** Fills the free unit and PMB slots; returns what did not fit, as text. */
function addUnits(out: ParsedUsAddress, units: readonly UnitRef[], pmb: UnitRef | undefined): string[] {
  const extra: string[] = [];
  for (const u of units) {
    if (out.secondary_designator === '' && out.secondary_number === '') {
      [out.secondary_designator, out.secondary_number] = [u.designator, u.number];
    } else if (out.extra_secondary_designator === '' && out.extra_secondary_number === '') {
      [out.extra_secondary_designator, out.extra_secondary_number] = [u.designator, u.number];
    } else {
      extra.push([u.designator, u.number].filter((p) => p !== '').join(' '));
    }
  }
  if (pmb) {
    if (out.pmb_number === '') [out.pmb_designator, out.pmb_number] = [pmb.designator, pmb.number];
    else extra.push(`${pmb.designator} ${pmb.number}`);
  }
  return extra;
}

function startsDelivery(w: readonly string[], military: boolean): boolean {
  if (w.length === 0) return false;
  const urb = readUrbanization(w, 0);
  const i = urb ? urb.end : 0;
  return isHouseNumber(w[i] ?? '') || matchSpecial(w, i, military) !== undefined;
}

function onlyUnits(w: readonly string[]): boolean {
  if (w.length === 0) return false;
  const r = readUnits(w, 0, true);
  return r.end === w.length;
}

function parseLines(input: AddressLinesInput): ParsedUsAddress {
  const out = blank();

  // Last line first: the city tells whether "USS OHIO" is a ship.
  const last = parseLastLine(words(input.lastLine ?? ''));
  out.city = last.city;
  out.state = last.state;
  out.zip_code = last.zip_code;
  out.zip_code_plus_4 = last.zip_code_plus_4;
  if (input.city != null && input.city.trim() !== '') out.city = cleanLine(input.city);
  if (input.state != null && input.state.trim() !== '') out.state = stateCode(input.state) ?? cleanLine(input.state);
  if (input.zipCode != null && input.zipCode.trim() !== '') {
    const zip = parseZip(input.zipCode.trim());
    out.zip_code = zip ? zip.zip_code : cleanLine(input.zipCode);
    out.zip_code_plus_4 = zip ? zip.zip_code_plus_4 : '';
  }
  const military = militaryContext(out.state, plainWords(out.city));

  let primary = plainWords(input.primaryLine);
  let secondary = plainWords(input.secondaryLine ?? '');
  const leftovers: string[] = [];

  if (onlyUnits(primary) && secondary.length > 0 && !onlyUnits(secondary)) {
    [primary, secondary] = [secondary, primary]; // unit written on the line above the street
  } else if (!startsDelivery(primary, military) && startsDelivery(secondary, military)) {
    leftovers.push(primary.join(' ')); // firm or attention line above the street
    [primary, secondary] = [secondary, []];
  }

  // Secondary line: urbanization, then units and PMB; anything else stays as text.
  let s = 0;
  const urb = readUrbanization(secondary, 0);
  if (urb) s = urb.end;
  const second = readUnits(secondary, s, true);
  const secondRest = secondary.slice(second.end);

  const d = parseDeliveryWords(primary, { military, bounded: false });
  leftovers.push(...applyDelivery(out, d, second.units));
  leftovers.push(...addUnits(out, [], second.pmb));
  leftovers.push(...d.rest, ...secondRest);
  if (urb) out.urbanization = urb.urbanization;
  if (input.urbanization != null && input.urbanization.trim() !== '') out.urbanization = cleanLine(input.urbanization);

  out.unparsed = leftovers.filter((x) => x !== '').join(' ');
  return out;
}
