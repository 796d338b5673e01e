// The verification family: test keys get the spec's samples, live keys the offline verifiers.
import { ApiError } from '../../errors';
import { findResource } from '../../catalog';
import { validate } from '../validate';
import type { Handler, OperationRequest } from '../operation';
import type { LetterCase } from '../../verify/case';
import { verifyUsAddress } from '../../verify/us-verifier';
import { usTestSample } from '../../verify/samples/us';
import { intlTestSample } from '../../verify/samples/intl';
import { verifyIntlAddress, type IntlVerificationInput } from '../../verify/intl-verifier';
import { testSuggestions, type AutocompleteFilters } from '../../verify/samples/autocomplete';
import { autocompleteLive, autocompletion } from '../../verify/autocomplete';
import { lookupUsZip } from '../../verify/zip-lookup';
import { testZipLookup } from '../../verify/samples/zip';
import type { UsVerificationInput } from '../../verify/us-object';

const letterCase = (query: Record<string, unknown>): LetterCase | undefined =>
  query.case === 'proper' ? 'proper' : undefined;

function verifyUs(body: Record<string, unknown>, req: OperationRequest) {
  const input = body as UsVerificationInput;
  return req.caller.mode === 'test'
    ? usTestSample(input, letterCase(req.query))
    : verifyUsAddress(input, letterCase(req.query));
}

function verifyIntl(body: Record<string, unknown>, req: OperationRequest) {
  return req.caller.mode === 'test'
    ? intlTestSample(body as Partial<IntlVerificationInput>)
    : verifyIntlAddress(body as unknown as IntlVerificationInput);
}

/** Bulk: each entry validated like a single body; a bad entry becomes an error object in its place. */
function bulk(single: string, verify: (body: Record<string, unknown>, req: OperationRequest) => unknown): Handler {
  return async (req) => {
    const operation = findResource(single)!.operations.find((o) => o.name === 'verify')!;
    const entries = req.body.addresses as unknown[];
    let errors = false;
    const addresses = entries.map((entry) => {
      try {
        return verify(validate(operation.body!, entry, operation.rules), req);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        errors = true;
        return err.toBody();
      }
    });
    return { addresses, errors };
  };
}

export const usVerificationHandlers: Record<string, Handler> = {
  // The free live quota is spent by the live gate (http/live-gates.ts), before the handler runs.
  verify: async (req) => verifyUs(req.body, req),
  verify_bulk: bulk('us_verifications', verifyUs),
};

export const intlVerificationHandlers: Record<string, Handler> = {
  verify: async (req) => verifyIntl(req.body, req),
  verify_bulk: bulk('intl_verifications', verifyIntl),
};

export const autocompleteHandlers: Record<string, Handler> = {
  autocomplete: async ({ body, query, caller, services, scope }) => {
    const prefix = String(body.address_prefix);
    const filters = body as AutocompleteFilters;
    if (caller.mode === 'test') return autocompletion(testSuggestions(prefix, filters), letterCase(query));
    return autocompleteLive(services, scope, prefix, filters, letterCase(query));
  },
};

export const zipLookupHandlers: Record<string, Handler> = {
  lookup: async ({ body, caller }) =>
    caller.mode === 'test' ? testZipLookup(String(body.zip_code)) : lookupUsZip(String(body.zip_code)),
};
