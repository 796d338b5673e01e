// The account's US mail strictness (docs/compat-notes.md): which deliverability an inline US `to` needs.
// strict: deliverable only; normal: also the three deliverable_*_unit values; relaxed: anything.
import { ApiError } from '../../base/errors';
import type { Mode } from '../../catalog/types';
import { judgeParsed, parseUsInput, streetQuestionZip } from './us-verifier';
import type { UsVerificationInput } from './us-object';
import type { StreetLookups } from '../../store/streets';
import type { StreetVerdict } from '../streets/match';
import { streetVerdict } from '../streets/lookup';
import { usTestSample, usTestValue } from './samples/us';
import type { UsDeliverability, UsVerification } from './us-object';

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

/** One run of the verifier over an address-book style US address. */
export interface UsJudged {
  /** the record standardized and corrected (see standardizeUsRecord) */
  lines: Required<UsAddressRecord>;
  deliverability: UsDeliverability;
  /** empty when deliverable; otherwise why not */
  reason: string;
}

/** The verifier's Pub 28 lines, with city, state and ZIP as the verifier placed them, else as given. */
function recordLines(record: UsAddressRecord, v: UsVerification): Required<UsAddressRecord> {
  const line2 = [v.urbanization, v.secondary_line].filter(Boolean).join(' ');
  const c = v.components;
  return {
    address_line1: v.primary_line,
    address_line2: line2 === '' ? null : line2,
    address_city: c.city || (record.address_city ?? null),
    address_state: c.state || (record.address_state ?? null),
    address_zip: c.zip_code
      ? c.zip_code_plus_4
        ? `${c.zip_code}-${c.zip_code_plus_4}`
        : c.zip_code
      : (record.address_zip ?? null),
  };
}

const inputOf = (record: UsAddressRecord): UsVerificationInput => ({
  primary_line: record.address_line1,
  secondary_line: record.address_line2 ?? undefined,
  city: record.address_city ?? undefined,
  state: record.address_state ?? undefined,
  zip_code: record.address_zip ?? undefined,
});

/** One verifier run; `verdict` is the street data's (streetVerdictOf), undefined for the last line alone. */
const verify = (record: UsAddressRecord, verdict?: StreetVerdict) => {
  const input = inputOf(record);
  return judgeParsed(input, parseUsInput(input), undefined, verdict);
};

/**
 * What the loaded street data says of a live address-book style record (undefined where it has no
 * say), read before the synchronous verifier runs, so the book and a piece's `to` are judged as
 * `POST /v1/us_verifications` judges them.
 */
export async function streetVerdictOf(
  lookups: StreetLookups,
  record: UsAddressRecord,
): Promise<StreetVerdict | undefined> {
  const parsed = parseUsInput(inputOf(record));
  const zip = streetQuestionZip(parsed);
  if (zip === undefined) return undefined;
  return streetVerdict(lookups, zip, {
    parts: parsed,
    primaryNumber: parsed.primary_number,
    unit: parsed.secondary_number,
  });
}

/**
 * Lines and deliverability from one verifier run. Both modes standardize and correct the lines the
 * same way; only the deliverability differs: test mode never judges it, so a magic test value in
 * address_line1 (`undeliverable no match`, ...) picks its sample's and anything else is deliverable.
 */
function judge(record: UsAddressRecord, mode: Mode, verdict?: StreetVerdict): UsJudged {
  const { verification, reason } = verify(record, mode === 'live' ? verdict : undefined);
  const lines = recordLines(record, verification);
  if (mode === 'live') return { lines, deliverability: verification.deliverability, reason };
  const magic = usTestValue({ primary_line: record.address_line1 });
  const deliverability = magic ? usTestSample({ primary_line: magic }).deliverability : 'deliverable';
  return { lines, deliverability, reason: deliverability === 'undeliverable' ? 'test value' : '' };
}

/** Throws `failed_deliverability_strictness` (422) when the account's setting refuses the judged address. */
function assertStrictness(judged: Pick<UsJudged, 'deliverability' | 'reason'>, strictness: string, field = 'to'): void {
  const { deliverability, reason } = judged;
  if (!strictnessAllows(strictness, deliverability)) {
    throw new ApiError(
      'failed_deliverability_strictness',
      `${field} address is ${deliverability}${reason ? ` (${reason})` : ''}, which the account's ${strictness} US mail strictness does not allow.`,
      422,
    );
  }
}

/**
 * The address book: the record standardized (Pub 28) and corrected (city, state and ZIP from the ZIP
 * database when the verifier places the address), in either mode. Undeliverable records keep their
 * Pub 28 lines; the book stores any deliverability, strictness is for mailpieces.
 */
export function standardizeUsRecord(record: UsAddressRecord, verdict?: StreetVerdict): Required<UsAddressRecord> {
  return recordLines(record, verify(record, verdict).verification);
}

/** How deliverable the address is (see judge). */
export function usDeliverability(
  record: UsAddressRecord,
  mode: Mode,
): { deliverability: UsDeliverability; reason: string } {
  const { deliverability, reason } = judge(record, mode);
  return { deliverability, reason };
}

/** The strictness check for a caller holding only the record. */
export function assertUsMailStrictness(record: UsAddressRecord, strictness: string, mode: Mode, field = 'to'): void {
  if (strictness !== 'relaxed') assertStrictness(judge(record, mode), strictness, field);
}

/** A mailpiece `to`: its standardized lines and deliverability, after the strictness check; one verifier run. */
export function verifiedUsRecord(
  record: UsAddressRecord,
  strictness: string,
  mode: Mode,
  field = 'to',
  verdict?: StreetVerdict,
): Required<UsAddressRecord> & { deliverability: UsDeliverability } {
  const judged = judge(record, mode, verdict);
  assertStrictness(judged, strictness, field);
  return { ...judged.lines, deliverability: judged.deliverability };
}
