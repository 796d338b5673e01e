// The account's US mail strictness (gaps.md): which deliverability an inline US `to` needs.
// strict: deliverable only; normal: also the three deliverable_*_unit values; relaxed: anything.
import { ApiError } from '../errors';
import type { Mode } from '../catalog/types';
import { judgeUsAddress } from './us-verifier';
import { usTestSample, usTestValue } from './samples/us';
import type { UsDeliverability } from './us-object';

export type UsMailStrictness = 'strict' | 'normal' | 'relaxed';

export function strictnessAllows(strictness: string, deliverability: UsDeliverability): boolean {
  if (strictness === 'strict') return deliverability === 'deliverable';
  if (strictness === 'normal') return deliverability !== 'undeliverable';
  return true;
}

export interface UsAddressRecord {
  address_line1: string;
  address_line2?: string | null;
  address_city?: string | null;
  address_state?: string | null;
  address_zip?: string | null;
}

/**
 * How deliverable an address-book style US address is. Live mode verifies it; test mode never
 * verifies, so a magic test value in address_line1 (`undeliverable no match`, ...) picks its sample's
 * deliverability and anything else counts as deliverable.
 */
export function usDeliverability(record: UsAddressRecord, mode: Mode): { deliverability: UsDeliverability; reason: string } {
  if (mode === 'test') {
    const magic = usTestValue({ primary_line: record.address_line1 });
    const deliverability = magic ? usTestSample({ primary_line: magic }).deliverability : 'deliverable';
    return { deliverability, reason: deliverability === 'undeliverable' ? 'test value' : '' };
  }
  const { verification, reason } = judgeUsAddress({
    primary_line: record.address_line1,
    secondary_line: record.address_line2 ?? undefined,
    city: record.address_city ?? undefined,
    state: record.address_state ?? undefined,
    zip_code: record.address_zip ?? undefined,
  });
  return { deliverability: verification.deliverability, reason };
}

/** Throws `failed_deliverability_strictness` (422) when the account's setting refuses the address. */
export function assertUsMailStrictness(record: UsAddressRecord, strictness: string, mode: Mode, field = 'to'): void {
  if (strictness === 'relaxed') return;
  const { deliverability, reason } = usDeliverability(record, mode);
  if (!strictnessAllows(strictness, deliverability)) {
    throw new ApiError(
      'failed_deliverability_strictness',
      `${field} address is ${deliverability}${reason ? ` (${reason})` : ''}, which the account's ${strictness} US mail strictness does not allow.`,
      422,
    );
  }
}

/**
 * For the address book and mailpiece `to`: the record in verified form (live: the verifier's lines,
 * with city, state and ZIP from the ZIP database when deliverable; test: Pub 28 lines as given),
 * after the strictness check. Records the verifier judges undeliverable keep their Pub 28 lines.
 */
export function verifiedUsRecord(record: UsAddressRecord, strictness: string, mode: Mode, field = 'to'): Required<UsAddressRecord> & { deliverability: UsDeliverability } {
  assertUsMailStrictness(record, strictness, mode, field);
  const { verification: v } = judgeUsAddress({
    primary_line: record.address_line1,
    secondary_line: record.address_line2 ?? undefined,
    city: record.address_city ?? undefined,
    state: record.address_state ?? undefined,
    zip_code: record.address_zip ?? undefined,
  });
  const line2 = [v.urbanization, v.secondary_line].filter(Boolean).join(' ');
  const c = v.components;
  const deliverability = mode === 'live' ? v.deliverability : usDeliverability(record, mode).deliverability;
  return {
    address_line1: v.primary_line,
    address_line2: line2 === '' ? null : line2,
    address_city: c.city || (record.address_city ?? null),
    address_state: c.state || (record.address_state ?? null),
    address_zip: c.zip_code ? (c.zip_code_plus_4 ? `${c.zip_code}-${c.zip_code_plus_4}` : c.zip_code) : (record.address_zip ?? null),
    deliverability,
  };
}
