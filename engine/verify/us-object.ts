// The us_verification object: its types and the parts shared by the samples and the live verifier.
import { applyCase, type LetterCase } from './case';

export type UsDeliverability =
  | 'deliverable'
  | 'deliverable_unnecessary_unit'
  | 'deliverable_incorrect_unit'
  | 'deliverable_missing_unit'
  | 'undeliverable';

export type ZipCodeType = 'standard' | 'military' | 'unique' | 'po_box' | '';

export interface UsComponents {
  primary_number: string;
  street_predirection: string;
  street_name: string;
  street_suffix: string;
  street_postdirection: string;
  secondary_designator: string;
  secondary_number: string;
  pmb_designator: string;
  pmb_number: string;
  extra_secondary_designator: string;
  extra_secondary_number: string;
  city: string;
  state: string;
  zip_code: string;
  zip_code_plus_4: string;
  zip_code_type: ZipCodeType;
  delivery_point_barcode: string;
  address_type: 'residential' | 'commercial' | '';
  record_type: 'street' | 'highrise' | 'firm' | 'po_box' | 'rural_route' | 'general_delivery' | '';
  default_building_address: boolean;
  county: string;
  county_fips: string;
  carrier_route: string;
  carrier_route_type: 'city_delivery' | 'rural_route' | 'highway_contract' | 'po_box' | 'general_delivery' | '';
  po_box_only_flag: 'Y' | 'N' | '';
  latitude: number | null;
  longitude: number | null;
}

export interface DeliverabilityAnalysis {
  dpv_confirmation: 'Y' | 'S' | 'D' | 'N' | '';
  dpv_cmra: string;
  dpv_vacant: string;
  dpv_active: string;
  dpv_inactive_reason: string;
  dpv_throwback: string;
  dpv_non_delivery_day_flag: string;
  dpv_non_delivery_day_values: string;
  dpv_no_secure_location: string;
  dpv_door_not_accessible: string;
  dpv_footnotes: string[];
  ews_match: boolean;
  lacs_indicator: string;
  lacs_return_code: string;
  suite_return_code: string;
}

export interface ConfidenceScore {
  score: number | null;
  level: 'high' | 'medium' | 'low' | '';
}

export interface UsVerification {
  id: string;
  recipient: string | null;
  primary_line: string;
  secondary_line: string;
  urbanization: string;
  last_line: string;
  deliverability: UsDeliverability;
  components: UsComponents;
  deliverability_analysis: DeliverabilityAnalysis;
  svc_confidence_score: ConfidenceScore;
  object: 'us_verification';
}

/** A request body of US verification, as validated by the catalog. */
export interface UsVerificationInput {
  recipient?: string | null;
  primary_line?: string;
  secondary_line?: string;
  urbanization?: string;
  city?: string;
  state?: string;
  zip_code?: string;
  address?: string;
}

/** No DPV match attempted: every field empty, no footnotes. */
export function noDpvAnalysis(): DeliverabilityAnalysis {
  return {
    dpv_confirmation: '', dpv_cmra: '', dpv_vacant: '', dpv_active: '', dpv_inactive_reason: '', dpv_throwback: '',
    dpv_non_delivery_day_flag: '', dpv_non_delivery_day_values: '', dpv_no_secure_location: '', dpv_door_not_accessible: '',
    dpv_footnotes: [], ews_match: false, lacs_indicator: '', lacs_return_code: '', suite_return_code: '',
  };
}

/** A DPV-confirmed delivery point as the samples show it. */
export function dpvAnalysis(confirmation: DeliverabilityAnalysis['dpv_confirmation'], footnotes: string[], more: Partial<DeliverabilityAnalysis> = {}): DeliverabilityAnalysis {
  const matched = confirmation === 'Y' || confirmation === 'S' || confirmation === 'D';
  const yn = (v: string) => (matched ? v : '');
  return {
    ...noDpvAnalysis(),
    dpv_confirmation: confirmation,
    dpv_cmra: yn('N'), dpv_vacant: yn('N'), dpv_active: yn('Y'), dpv_throwback: yn('N'),
    dpv_non_delivery_day_flag: yn('N'), dpv_no_secure_location: yn('N'), dpv_door_not_accessible: yn('N'),
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
