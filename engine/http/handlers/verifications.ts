// The verification family: test keys get the spec's samples, live keys the offline verifiers.
import { ApiError } from '../../base/errors';
import type { TObject } from '@sinclair/typebox';
import type { BodyOf, Operation } from '../../catalog/types';
import {
  autocompleteOperations,
  intlVerificationOperations,
  usVerificationOperations,
  zipLookupOperations,
} from '../../catalog/verifications';
import { validate } from '../../domain/validation/validate';
import { serve, type OperationRequest, type Served } from '../operation';
import type { LetterCase } from '../../domain/verify/case';
import { verifyUsAddressLive } from '../../domain/verify/us-live';
import { usTestSample } from '../../domain/verify/samples/us';
import { intlTestSample } from '../../domain/verify/samples/intl';
import { verifyIntlAddress } from '../../domain/verify/intl-verifier';
import { testSuggestions } from '../../domain/verify/samples/autocomplete';
import { autocompleteLive, autocompletion } from '../../domain/verify/autocomplete';
import { lookupUsZip } from '../../domain/verify/zip-lookup';
import { testZipLookup } from '../../domain/verify/samples/zip';
import { reverseGeocodeOperations } from '../../catalog/reverse-geocode';
import { reverseGeocode } from '../../domain/verify/reverse-geocode';

const letterCase = (value: unknown): LetterCase | undefined => (value === 'proper' ? 'proper' : undefined);

const us = usVerificationOperations;
const intl = intlVerificationOperations;
type UsRequest = Pick<OperationRequest<typeof us.verify>, 'caller' | 'query' | 'services'>;
type IntlRequest = Pick<OperationRequest<typeof intl.verify>, 'caller'>;

const verifyUs = async (body: BodyOf<typeof us.verify>, req: UsRequest) =>
  req.caller.mode === 'test'
    ? usTestSample(body, letterCase(req.query.case))
    : verifyUsAddressLive(req.services.store.streets, body, letterCase(req.query.case));

const verifyIntl = (body: BodyOf<typeof intl.verify>, req: IntlRequest) =>
  req.caller.mode === 'test' ? intlTestSample(body) : verifyIntlAddress(body);

/** Bulk: each entry validated like a single body; a bad entry becomes an error object in its place. */
async function bulk<S extends Operation & { body: TObject }, R>(
  single: S,
  entries: readonly unknown[],
  req: R,
  verify: (body: BodyOf<S>, req: R) => unknown,
) {
  let errors = false;
  const addresses = await Promise.all(
    entries.map(async (entry) => {
      try {
        return await verify(validate(single.body, entry, single.rules), req);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        errors = true;
        return err.toBody();
      }
    }),
  );
  return { addresses, errors };
}

export const verificationHandlers: Served[] = [
  // The free live quota is spent by the live gate (http/live-gates.ts), before the handler runs.
  serve(us.verify, async (req) => verifyUs(req.body, req)),
  serve(us.verify_bulk, async (req) => bulk(us.verify, req.body.addresses, req, verifyUs)),
  serve(intl.verify, async (req) => verifyIntl(req.body, req)),
  serve(intl.verify_bulk, async (req) => bulk(intl.verify, req.body.addresses, req, verifyIntl)),
  serve(autocompleteOperations.autocomplete, async ({ body, query, caller, services, scope }) => {
    if (caller.mode === 'test')
      return autocompletion(testSuggestions(body.address_prefix, body), letterCase(query.case));
    return autocompleteLive(services, scope, body.address_prefix, body, letterCase(query.case));
  }),
  serve(zipLookupOperations.lookup, async ({ body, caller }) =>
    caller.mode === 'test' ? testZipLookup(body.zip_code) : lookupUsZip(body.zip_code),
  ),
  serve(reverseGeocodeOperations.lookup, async ({ body, query }) =>
    reverseGeocode(body.latitude, body.longitude, query.size),
  ),
];
