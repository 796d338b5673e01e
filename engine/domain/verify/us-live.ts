// Live US verification with the operator's street data: the last line placed as always, then, where
// the ZIP has street data, the street and number judged by it (domain/streets). ZIPs without data
// answer exactly as the last line alone does.
import type { StreetLookups } from '../../store/streets';
import { streetVerdict } from '../streets/lookup';
import type { LetterCase } from './case';
import type { UsVerification, UsVerificationInput } from './us-object';
import { judgeParsed, parseUsInput, streetQuestionZip, type UsJudgement } from './us-verifier';

export async function judgeUsAddressLive(
  lookups: StreetLookups,
  input: UsVerificationInput,
  letterCase?: LetterCase,
): Promise<UsJudgement> {
  const parsed = parseUsInput(input);
  const zip = streetQuestionZip(parsed);
  const verdict =
    zip === undefined
      ? undefined
      : await streetVerdict(lookups, zip, {
          parts: parsed,
          primaryNumber: parsed.primary_number,
          unit: parsed.secondary_number,
        });
  return judgeParsed(input, parsed, letterCase, verdict);
}

/** The live `POST /v1/us_verifications` answer. */
export async function verifyUsAddressLive(
  lookups: StreetLookups,
  input: UsVerificationInput,
  letterCase?: LetterCase,
): Promise<UsVerification> {
  return (await judgeUsAddressLive(lookups, input, letterCase)).verification;
}
