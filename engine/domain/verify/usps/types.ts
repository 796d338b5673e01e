// Shapes shared by the parser and the formatter. Field names follow the spec's
// us_verification `components` so a verifier can copy them across unchanged.

export type AddressKind = 'street' | 'po_box' | 'rural_route' | 'highway_contract' | 'military' | 'general_delivery';

export interface UsAddressComponents {
  /** House number ("123", "123 1/2", "12-34"), or the box number of a PO box, RR, HC or military box. */
  primary_number: string;
  street_predirection: string;
  /**
   * Street name, or for the non-street kinds the fixed part before the box number:
   * "PO BOX", "RR 2 BOX", "HC 68 BOX", "PSC 1234 BOX", "USS OHIO", "GENERAL DELIVERY".
   */
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
  /** Puerto Rico urbanization, e.g. "URB LAS GLADIOLAS". */
  urbanization: string;
}

export interface ParsedUsAddress extends UsAddressComponents {
  kind: AddressKind;
  /** Text the parser could not place (a firm name, "ATTN ..."), normalized; empty when none. */
  unparsed: string;
}

export interface AddressLinesInput {
  primaryLine: string;
  secondaryLine?: string | null;
  /** "CITY, ST 12345-6789" in any form; the separate fields below win over it. */
  lastLine?: string | null;
  city?: string | null;
  state?: string | null;
  zipCode?: string | null;
  urbanization?: string | null;
}

export interface StandardizedLines {
  primaryLine: string;
  /** Empty unless the units did not fit on the primary line, or unplaced text remained. */
  secondaryLine: string;
  /** "CITY ST 12345-6789". */
  lastLine: string;
  /** Puerto Rico urbanization line, empty elsewhere. */
  urbanization: string;
}

export function emptyComponents(): UsAddressComponents {
  return {
    primary_number: '',
    street_predirection: '',
    street_name: '',
    street_suffix: '',
    street_postdirection: '',
    secondary_designator: '',
    secondary_number: '',
    pmb_designator: '',
    pmb_number: '',
    extra_secondary_designator: '',
    extra_secondary_number: '',
    city: '',
    state: '',
    zip_code: '',
    zip_code_plus_4: '',
    urbanization: '',
  };
}
