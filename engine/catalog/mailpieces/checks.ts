// Checks (spec: Check, Checks): drawn on a verified bank account, US only, first class only, with the
// payee's street lines at most 50 characters together.
import { Type } from '@sinclair/typebox';
import { bankAccounts } from '../bank-accounts';
import { nullable } from '../fields';
import { idPatternFor } from '../paths';
import type { Rule } from '../types';
import { defineMailpiece } from './define';
import { TRACKING_EVENTS } from '../event-types';
import { domesticOnly } from './rules';

const amount = () =>
  Type.Number({
    minimum: 0.01,
    maximum: 999_999.99,
    description: 'US dollars, at most two decimal places and 999999.99.',
    examples: [22.5],
  });
const memo = () =>
  nullable(
    Type.String({
      maxLength: 40,
      description: 'The memo line, at most 40 characters; takes merge variables ({{name}}).',
    }),
  );
const message = () =>
  Type.String({
    maxLength: 400,
    description: 'Printed at the bottom of the check page, at most 400 characters; takes merge variables ({{name}}).',
  });
const checkNumber = () =>
  Type.Integer({
    minimum: 1,
    maximum: 500_000_000,
    description: 'The check number; by default each bank account counts from 10000, continuing after a given one.',
    examples: [10001],
  });

const twoDecimals: Rule = (body, at) => {
  const cents = Number(body.amount) * 100;
  return Math.abs(cents - Math.round(cents)) > 1e-6
    ? { message: `${at('amount')} must have at most two decimal places` }
    : undefined;
};

const messageOrBottom: Rule = (body, at) =>
  body.message !== undefined && body.check_bottom !== undefined
    ? { message: `${at('message')} and ${at('check_bottom')} cannot both be given: both print below the check` }
    : undefined;

const LINES_LIMIT = 50;
const payeeLines: Rule = (body, at) => {
  const to = body.to as { address_line1?: string; address_line2?: string | null };
  const length = (to.address_line1 ?? '').length + (to.address_line2 ?? '').length;
  return length > LINES_LIMIT
    ? {
        code: 'address_length_exceeds_limit',
        message: `${at('to.address_line1')} and ${at('to.address_line2')} must be at most ${LINES_LIMIT} characters together`,
      }
    : undefined;
};

export const checks = defineMailpiece({
  name: 'checks',
  title: 'Check',
  object: 'check',
  idPrefix: 'chk',
  description: 'Checks printed on the account of a verified bank account and mailed by first class to US payees.',
  artwork: [
    { field: 'check_bottom', what: 'Artwork below the check', required: false, named: true },
    { field: 'attachment', what: 'Pages mailed after the check', required: false, named: true },
  ],
  takes: { qr_code: false, fsc: false },
  // printed on the check page, merged like the artwork: `Thank you, {{name}}`
  mergedText: ['message', 'memo'],
  unsetTemplateIds: 'absent',
  fromRequired: true,
  mailType: Type.Literal('usps_first_class', {
    default: 'usps_first_class',
    description: 'Checks go by usps_first_class only.',
  }),
  createFields: {
    bank_account: Type.String({
      pattern: idPatternFor('bank'),
      errorMessage: 'must be a bank account id (bank_...)',
      description: 'The verified bank account (bank_...) the check is drawn on.',
      examples: ['bank_8cad8df5354d33f'],
    }),
    amount: amount(),
    memo: Type.Optional(memo()),
    message: Type.Optional(message()),
    check_number: Type.Optional(checkNumber()),
  },
  objectFields: {
    bank_account: bankAccounts.schema,
    amount: amount(),
    memo: memo(),
    // the vendor types it a plain string: left out when none was given
    message: Type.Optional(message()),
    check_number: checkNumber(),
  },
  rules: [twoDecimals, messageOrBottom],
  placementRules: [domesticOnly('Checks', 'invalid_check_international'), payeeLines],
  // checks do not leave the country: no international_exit
  events: TRACKING_EVENTS.filter((e) => e !== 'international_exit'),
  sample: {
    id: 'chk_534f10783683daa0',
    bank_account: bankAccounts.sample,
    amount: 22.5,
    memo: 'rent',
    message: 'Thank you for your business',
    check_number: 10001,
    mail_type: 'usps_first_class',
  },
});
