// The vendor's `coverage` and `status` of an international verification, said honestly of the offline
// check: it holds postal codes to the country's format and to their region, and knows region names, but
// has no street or premise data. So no live answer claims more than the locality.
import type { IntlCoverage, IntlStatus } from '../../catalog/verification-objects';
import { hasRegions } from './intl-regions';

export type IntlDeliverability = 'deliverable' | 'deliverable_missing_info' | 'undeliverable' | 'no_match';

/** LOCALITY where the country's regions are known (a region can be checked to exist), else SPARSE. */
export function liveCoverage(country: string): IntlCoverage {
  return hasRegions(country) ? 'LOCALITY' : 'SPARSE';
}

/**
 * Deliverable: verified as far as the check reaches (LV2: correct, the rest unverifiable). Missing
 * information: LM2. A malformed postal code, or one of another region, matches nothing: LU1.
 */
export function liveStatus(deliverability: IntlDeliverability): IntlStatus {
  switch (deliverability) {
    case 'deliverable':
      return 'LV2';
    case 'deliverable_missing_info':
      return 'LM2';
    default:
      return 'LU1';
  }
}
