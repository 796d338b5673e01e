// The verification family: test keys get the spec's samples, live keys the offline verifiers.
import { ApiError } from '../../errors';
import type { Static, TObject } from '@sinclair/typebox';
import type { Operation, Resource } from '../../catalog/types';
import {
  autocompleteSchemas,
  intlVerifications,
  intlVerificationSchemas,
  usVerifications,
  usVerificationSchemas,
  zipLookupSchemas,
} from '../../catalog/verifications';
import type { IntlVerificationInput, UsVerificationInput } from '../../catalog/verification-fields';
import { validate } from '../validate';
import { typed, type Handler, type OperationRequest, type TypedRequest } from '../operation';
import type { LetterCase } from '../../verify/case';
import { verifyUsAddress } from '../../verify/us-verifier';
import { usTestSample } from '../../verify/samples/us';
import { intlTestSample } from '../../verify/samples/intl';
import { verifyIntlAddress } from '../../verify/intl-verifier';
import { testSuggestions } from '../../verify/samples/autocomplete';
import { autocompleteLive, autocompletion } from '../../verify/autocomplete';
import { lookupUsZip } from '../../verify/zip-lookup';
import { testZipLookup } from '../../verify/samples/zip';

const letterCase = (value: unknown): LetterCase | undefined => (value === 'proper' ? 'proper' : undefined);

type UsRequest = TypedRequest<typeof usVerificationSchemas.body, typeof usVerificationSchemas.query>;
type IntlRequest = TypedRequest<typeof intlVerificationSchemas.body, TObject>;

const verifyUs = (body: UsVerificationInput, req: Pick<UsRequest, 'caller' | 'query'>) =>
  req.caller.mode === 'test'
    ? usTestSample(body, letterCase(req.query.case))
    : verifyUsAddress(body, letterCase(req.query.case));

const verifyIntl = (body: IntlVerificationInput, req: Pick<IntlRequest, 'caller'>) =>
  req.caller.mode === 'test' ? intlTestSample(body) : verifyIntlAddress(body);

/** Bulk: each entry validated like a single body; a bad entry becomes an error object in its place. */
function bulk<B extends TObject, R extends Pick<OperationRequest, 'caller' | 'query'>>(
  single: { body: B; rules?: Operation['rules'] },
  verify: (body: Static<B>, req: R) => unknown,
): Handler {
  return async (req) => {
    const entries = req.body.addresses as unknown[];
    let errors = false;
    const addresses = entries.map((entry) => {
      try {
        return verify(validate(single.body, entry, single.rules) as Static<B>, req as unknown as R);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        errors = true;
        return err.toBody();
      }
    });
    return { addresses, errors };
  };
}

const singleVerify = (resource: Resource) => resource.operations.find((o) => o.name === 'verify')!;
const usSingle = { body: usVerificationSchemas.body, rules: singleVerify(usVerifications).rules };
const intlSingle = { body: intlVerificationSchemas.body, rules: singleVerify(intlVerifications).rules };

export const usVerificationHandlers: Record<string, Handler> = {
  // The free live quota is spent by the live gate (http/live-gates.ts), before the handler runs.
  verify: typed(usVerificationSchemas, async (req) => verifyUs(req.body, req)),
  verify_bulk: bulk(usSingle, verifyUs),
};

export const intlVerificationHandlers: Record<string, Handler> = {
  verify: typed(intlVerificationSchemas, async (req) => verifyIntl(req.body, req)),
  verify_bulk: bulk(intlSingle, verifyIntl),
};

export const autocompleteHandlers: Record<string, Handler> = {
  autocomplete: typed(autocompleteSchemas, async ({ body, query, caller, services, scope }) => {
    if (caller.mode === 'test')
      return autocompletion(testSuggestions(body.address_prefix, body), letterCase(query.case));
    return autocompleteLive(services, scope, body.address_prefix, body, letterCase(query.case));
  }),
};

export const zipLookupHandlers: Record<string, Handler> = {
  lookup: typed(zipLookupSchemas, async ({ body, caller }) =>
    caller.mode === 'test' ? testZipLookup(body.zip_code) : lookupUsZip(body.zip_code),
  ),
};
