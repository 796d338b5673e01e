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

function applyDelivery(out: ParsedUsAddress, d: DeliveryLine, extraUnits: readonly UnitRef[], extraPmb?: UnitRef): string[] {
  out.kind = d.kind;
  out.primary_number = d.primary_number;
  out.street_predirection = d.street_predirection;
  out.street_name = d.street_name;
  out.street_suffix = d.street_suffix;
  out.street_postdirection = d.street_postdirection;
  if (d.urbanization) out.urbanization = d.urbanization;
  const units = [...d.units, ...extraUnits];
  const leftovers: string[] = [];
  if (units[0]) [out.secondary_designator, out.secondary_number] = [units[0].designator, units[0].number];
  if (units[1]) [out.extra_secondary_designator, out.extra_secondary_number] = [units[1].designator, units[1].number];
  // Pub 28 has room for two units; any further one is kept as text rather than dropped.
  for (const u of units.slice(2)) leftovers.push([u.designator, u.number].filter((p) => p).join(' '));
  const pmb = d.pmb ?? extraPmb;
  if (pmb) [out.pmb_designator, out.pmb_number] = [pmb.designator, pmb.number];
  return leftovers;
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
    const head = parseDeliveryWords(plain.slice(0, lastComma + 1), { military, bounded: false });
    const tail = plain.slice(lastComma + 1);
    // ", APT 4 SPRINGFIELD": units may open the city segment.
    const tailUnits = readUnits(tail, 0, false);
    const cityWords = tail.slice(tailUnits.end);
    // Without state or ZIP, a last segment holding only units is not a city.
    leftovers = applyDelivery(out, head, tailUnits.units, tailUnits.pmb);
    leftovers.unshift(...head.rest);
    out.city = cityWords.join(' ');
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
  leftovers.push(...applyDelivery(out, d, second.units, second.pmb));
  if (second.pmb && d.pmb) leftovers.push(`PMB ${second.pmb.number}`);
  leftovers.push(...d.rest, ...secondRest);
  if (urb) out.urbanization = urb.urbanization;
  if (input.urbanization != null && input.urbanization.trim() !== '') out.urbanization = cleanLine(input.urbanization);

  out.unparsed = leftovers.filter((x) => x !== '').join(' ');
  return out;
}
