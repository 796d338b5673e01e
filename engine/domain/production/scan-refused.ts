/** Why a scan cannot become a tracking event: said once, and the record is set aside with it. */
export class ScanRefused extends Error {}
