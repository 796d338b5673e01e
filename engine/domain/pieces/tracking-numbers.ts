// A letter's tracking number, drawn from the operator's identity: certified mail carries the Mailer
// ID (USPS_MAILER_ID) and a serial of its own, registered mail a serial of the S10 range USPS assigned
// (USPS_S10_*), each serial drawn by the database so none repeats across processes. Test pieces get a
// sample's, fixed by their id. A live registered letter without a range is refused before anything is
// stored, so nothing unmailable is made; a live certified letter created before the Mailer ID is set
// gets its number when it is drawn (the render waits for the identity anyway).
import { ApiError } from '../../base/errors';
import { REGISTERED_OFF } from '../../catalog/usps-identity';
import { type EngineConfig, registeredRangeOf } from '../../platform/config';
import { impbNumber, impbSerialDigits, s10Number, sampleTrackingNumber } from '../../print/overlay/tracking-number';
import type { Store } from '../../store/store';
import { SerialRangeUsedUp } from '../../store/tracking-serials';
import type { Scope } from '../../store/objects';

type Draws = Pick<Store, 'trackingSerials'>;

/** Refuses a live registered letter when no S10 range is configured (before anything is stored). */
export function assertTrackable(config: EngineConfig, scope: Scope, extraService: unknown): void {
  if (scope.mode === 'live' && extraService === 'registered' && !registeredRangeOf(config))
    throw new ApiError('invalid', REGISTERED_OFF, 422);
}

/** A live certified number under `mailerId`: its next serial. */
export async function certifiedNumber(store: Draws, extraService: string, mailerId: string): Promise<string> {
  const last = 10 ** impbSerialDigits(mailerId) - 1;
  try {
    const serial = await store.trackingSerials.drawSerial({ series: `impb:${mailerId}`, first: 0, last });
    return impbNumber(extraService, mailerId, serial);
  } catch (error) {
    if (!(error instanceof SerialRangeUsedUp)) throw error;
    throw new ApiError('invalid', `every certified tracking number of Mailer ID ${mailerId} has been given`, 422);
  }
}

async function registeredNumber(store: Draws, config: EngineConfig): Promise<string> {
  const range = registeredRangeOf(config);
  if (!range) throw new ApiError('invalid', REGISTERED_OFF, 422);
  try {
    const serial = await store.trackingSerials.drawSerial({ series: `s10:${range.indicator}`, ...range });
    return s10Number(range.indicator, serial);
  } catch (error) {
    if (!(error instanceof SerialRangeUsedUp)) throw error;
    const end = s10Number(range.indicator, range.last);
    throw new ApiError(
      'invalid',
      `the registered mail range is used up (its last number, ${end}, has been given): set USPS_S10_FIRST_SERIAL and USPS_S10_LAST_SERIAL to a new range USPS assigned you and restart the engine`,
      422,
    );
  }
}

/**
 * The number a new letter with `extraService` carries: a sample's in test mode; live, drawn from the
 * operator's identity, or null for a certified letter while no Mailer ID is configured.
 */
export async function trackingNumberFor(
  store: Draws,
  config: EngineConfig,
  scope: Scope,
  extraService: string,
  pieceId: string,
): Promise<string | null> {
  if (scope.mode !== 'live') return sampleTrackingNumber(extraService, pieceId);
  if (extraService === 'registered') return registeredNumber(store, config);
  return config.uspsMailerId ? certifiedNumber(store, extraService, config.uspsMailerId) : null;
}
