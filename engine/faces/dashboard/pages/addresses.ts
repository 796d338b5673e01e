// Addresses: the address book of the session's account and mode, paged; and a form that verifies a US
// address as the API does (test mode: the spec's samples; live: the offline verifier, spending the free
// allowance of an account without a payment method) and explains the answer in words.
import { ApiError } from '../../../base/errors';
import { usVerificationOperations } from '../../../catalog/verifications';
import { validate } from '../../../domain/validation/validate';
import { verifyUsAddressLive } from '../../../domain/verify/us-live';
import { usTestSample } from '../../../domain/verify/samples/us';
import { takeFreeVerification } from '../../../domain/verify/quota';
import { page, type DashboardRequest, type Rendered } from '../page';
import { addressLines } from './piece-view';

const PAGE_SIZE = 25;

const EXPLAINED: Record<string, string> = {
  deliverable: 'USPS delivers mail to this address as written.',
  deliverable_unnecessary_unit: 'USPS delivers to this address; the unit number given is not needed.',
  deliverable_incorrect_unit: 'USPS delivers to the building, but the unit number given does not exist there.',
  deliverable_missing_unit: 'USPS delivers to the building, but a unit number (apartment, suite) is missing.',
  undeliverable: 'USPS does not deliver mail to this address: check the street, number and ZIP code.',
};

/** What answered a live verification (its `street_data`), in words: an operator sees what was checked. */
const ANSWERED_BY: Record<string, string> = {
  street_ranges: 'the loaded TIGER/Line street ranges (street and number checked)',
  address_points: 'the loaded address points (street, number and unit checked)',
  last_line: 'the city, state and ZIP code only: no street data is loaded for this ZIP code',
};

const FIELDS = ['recipient', 'primary_line', 'secondary_line', 'city', 'state', 'zip_code'] as const;

async function addressBook({ services, scope, query }: DashboardRequest) {
  const list = await services.objects.list(scope, 'addresses', {
    limit: PAGE_SIZE,
    after: query.after || undefined,
  });
  return {
    rows: list.data.map((address) => ({
      id: address.id,
      description: typeof address.description === 'string' ? address.description : '',
      lines: addressLines(address),
      created: address.date_created,
    })),
    next: list.next ? `/dashboard/addresses?after=${encodeURIComponent(list.next)}` : undefined,
    first: query.after ? '/dashboard/addresses' : undefined,
  };
}

async function addresses(request: DashboardRequest): Promise<Rendered> {
  return {
    view: 'addresses',
    title: 'Addresses',
    nav: 'addresses',
    data: { ...(await addressBook(request)), input: {}, testMode: request.scope.mode === 'test' },
  };
}

async function verification(request: DashboardRequest): Promise<Record<string, unknown>> {
  const { services, scope, session } = request;
  const given: Record<string, string> = {};
  for (const field of FIELDS) if (request.form[field]?.trim()) given[field] = request.form[field].trim();
  const operation = usVerificationOperations.verify;
  try {
    const body = validate(operation.body, given, operation.rules);
    // a live verification from here spends the month's free allowance as the API's does
    if (scope.mode === 'live' && !session.account.settings.payment_method_verified && operation.freeLiveQuota)
      await takeFreeVerification(services.store.counters, session.account.id, operation.freeLiveQuota);
    const answer =
      scope.mode === 'test'
        ? usTestSample(body, undefined)
        : await verifyUsAddressLive(services.store.streets, body, undefined);
    return {
      answer: {
        deliverability: answer.deliverability,
        explanation: EXPLAINED[answer.deliverability] ?? answer.deliverability,
        streetData: answer.street_data,
        answeredBy: answer.street_data && (ANSWERED_BY[answer.street_data] ?? answer.street_data),
        lines: [answer.primary_line, answer.secondary_line, answer.urbanization, answer.last_line].filter(Boolean),
        details: answer,
      },
    };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return { problem: error.message };
    throw error;
  }
}

async function verify(request: DashboardRequest): Promise<Rendered> {
  return {
    view: 'addresses',
    title: 'Addresses',
    nav: 'addresses',
    data: {
      ...(await addressBook(request)),
      ...(await verification(request)),
      input: request.form,
      testMode: request.scope.mode === 'test',
    },
  };
}

export const addressPages = [page('GET', '/addresses', addresses), page('POST', '/addresses/verify', verify)];
