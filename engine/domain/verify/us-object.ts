// The us_verification object: its types, derived from the catalog's schemas (the one source of
// truth), and the parts shared by the samples and the live verifier.
import type { Static } from '@sinclair/typebox';
import type {
  confidenceScore,
  deliverabilityAnalysis,
  usComponents,
  usVerificationObject,
} from '../../catalog/verification-objects';
import { applyCase, type LetterCase } from './case';

export type UsVerification = Static<ReturnType<typeof usVerificationObject>>;
export type UsComponents = Static<ReturnType<typeof usComponents>>;
export type DeliverabilityAnalysis = Static<ReturnType<typeof deliverabilityAnalysis>>;
export type ConfidenceScore = Static<ReturnType<typeof confidenceScore>>;
export type UsDeliverability = UsVerification['deliverability'];

/** A request body of US verification, as validated by the catalog. */
export type { UsVerificationInput } from '../../catalog/verification-fields';

/** No DPV match attempted: every field empty, no footnotes. */
export function noDpvAnalysis(): DeliverabilityAnalysis {
  return {
    dpv_confirmation: '',
    dpv_cmra: '',
    dpv_vacant: '',
    dpv_active: '',
    dpv_inactive_reason: '',
    dpv_throwback: '',
    dpv_non_delivery_day_flag: '',
    dpv_non_delivery_day_values: '',
    dpv_no_secure_location: '',
    dpv_door_not_accessible: '',
    dpv_footnotes: [],
    ews_match: false,
    lacs_indicator: '',
    lacs_return_code: '',
    suite_return_code: '',
  };
}

/** A DPV-confirmed delivery point as the samples show it. */
export function dpvAnalysis(
  confirmation: DeliverabilityAnalysis['dpv_confirmation'],
  footnotes: string[],
  more: Partial<DeliverabilityAnalysis> = {},
): DeliverabilityAnalysis {
  const matched = confirmation === 'Y' || confirmation === 'S' || confirmation === 'D';
  const yn = (v: 'Y' | 'N') => (matched ? v : '');
  return {
    ...noDpvAnalysis(),
    dpv_confirmation: confirmation,
    dpv_cmra: yn('N'),
    dpv_vacant: yn('N'),
    dpv_active: yn('Y'),
    dpv_throwback: yn('N'),
    dpv_non_delivery_day_flag: yn('N'),
    dpv_no_secure_location: yn('N'),
    dpv_door_not_accessible: yn('N'),
    dpv_footnotes: footnotes,
    ...more,
  };
}

export const NO_SCORE: ConfidenceScore = Object.freeze({ score: null, level: '' }) as ConfidenceScore;

/** Applies `case` to the five cased fields (recipient, primary, secondary, urbanization, last line). */
export function withCase(v: UsVerification, letterCase: LetterCase | undefined): UsVerification {
  if (letterCase !== 'proper') return v;
  return {
    ...v,
    recipient: v.recipient === null ? null : applyCase(v.recipient, letterCase),
    primary_line: applyCase(v.primary_line, letterCase),
    secondary_line: applyCase(v.secondary_line, letterCase),
    urbanization: applyCase(v.urbanization, letterCase),
    last_line: applyCase(v.last_line, letterCase, true),
  };
}
