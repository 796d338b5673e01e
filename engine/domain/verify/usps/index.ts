// US address parsing and USPS Publication 28 standardization. Pure, no dependencies.

export { parseUsAddress } from './parse';
export { standardize, formatLastLine, formatZip, type StandardizeInput, type StandardizeOptions } from './format';
export {
  standardizeAddressRecord,
  standardizeAddress,
  ADDRESS_LINE_MAX,
  type AddressRecordFields,
  type StandardizedAddressFields,
} from './record';
export { stateCode, stateName, isMilitaryState, US_STATES, type UsState } from './states';
export { streetSuffix } from './suffixes';
export { unitDesignator } from './units';
export { directional } from './directionals';
export { parseZip, type ZipParts } from './lastline';
export type { AddressKind, AddressLinesInput, ParsedUsAddress, StandardizedLines, UsAddressComponents } from './types';
