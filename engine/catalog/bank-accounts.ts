// Bank accounts (spec: Bank accounts; docs/compat-notes.md: verify), which checks draw on once verified.
import { Type, type Static } from '@sinclair/typebox';
import { description, metadata, nullable } from './fields';
import { listOperation } from './list-filters';
import { defineResource } from './resource';
import { operation } from './operation';
import { withRules } from './rules';
import { isBlank } from './blank';
import type { Rule } from './types';

const str = (maxLength: number, text: string, example: string) =>
  Type.String({ maxLength, description: text, examples: [example] });

/** ABA routing number checksum: 3, 7, 1 weights over the nine digits sum to a multiple of ten. */
export function isAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0 && value !== '000000000';
}

const validRouting: Rule = (body, at) =>
  isAbaRoutingNumber(String(body.routing_number))
    ? undefined
    : { code: 'invalid_bank_account', message: `${at('routing_number')} is not a valid ABA routing number` };

const jpmNeedsAddress: Rule = (body, at) => {
  if (body.check_template !== 'jpm') return undefined;
  const missing = ['fractional_routing_number', 'city', 'state', 'zipcode'].find((f) => isBlank(body[f]));
  return missing ? { message: `${at(missing)} is required when check_template is jpm` } : undefined;
};

const checkTemplate = () =>
  Type.Union([Type.Literal('common'), Type.Literal('jpm')], {
    default: 'common',
    description: 'Check stock layout: common, or jpm (needs fractional_routing_number, city, state, zipcode).',
    examples: ['common'],
  });

const createBody = withRules(
  Type.Object({
    description: Type.Optional(description()),
    routing_number: Type.String({
      pattern: '^\\d{9}$',
      errorMessage: 'must be exactly 9 digits',
      description: 'The ABA routing number: 9 digits with a valid check digit.',
      examples: ['322271627'],
    }),
    account_number: Type.String({
      minLength: 1,
      maxLength: 17,
      pattern: '^\\d+$',
      errorMessage: 'must be digits only',
      description: 'The account number, at most 17 digits.',
      examples: ['123456789'],
    }),
    account_type: Type.Union([Type.Literal('company'), Type.Literal('individual')], {
      description: 'Who holds the account: company or individual.',
      examples: ['company'],
    }),
    signatory: Type.String({
      minLength: 1,
      ...str(30, 'The name printed as the signatory on checks, at most 30 characters.', 'Jane Doe'),
    }),
    check_template: Type.Optional(checkTemplate()),
    fractional_routing_number: Type.Optional(str(20, 'The fractional routing number (jpm checks).', '90-7162/3222')),
    city: Type.Optional(str(200, "The bank's city (jpm checks).", 'San Francisco')),
    state: Type.Optional(str(200, "The bank's state (jpm checks).", 'CA')),
    zipcode: Type.Optional(str(40, "The bank's ZIP code (jpm checks).", '94107')),
    metadata: Type.Optional(metadata()),
  }),
  [validRouting, jpmNeedsAddress],
);

const verifyBody = Type.Object({
  amounts: Type.Array(Type.Integer({ minimum: 1, maximum: 100 }), {
    minItems: 2,
    maxItems: 2,
    description: 'The two micro-deposit amounts in cents, each 1 to 100.',
    examples: [[25, 63]],
  }),
});

export type BankAccountInput = Static<typeof createBody>;

export const bankAccountOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/bank_accounts',
    summary: 'Create a bank account',
    body: createBody,
    response: 'object',
    idempotent: true,
  }),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/bank_accounts/{id}',
    summary: 'Retrieve a bank account',
    response: 'object',
  }),
  list: listOperation('/v1/bank_accounts', 'List bank accounts'),
  delete: operation({
    name: 'delete',
    method: 'DELETE',
    path: '/v1/bank_accounts/{id}',
    summary: 'Delete a bank account',
    response: 'deleted',
  }),
  verify: operation({
    name: 'verify',
    method: 'POST',
    path: '/v1/bank_accounts/{id}/verify',
    summary: 'Verify a bank account',
    body: verifyBody,
    response: 'object',
  }),
};

export const bankAccounts = defineResource({
  name: 'bank_accounts',
  title: 'Bank account',
  object: 'bank_account',
  idPrefix: 'bank',
  description: 'Bank accounts that checks draw on; an account must be verified before a check can use it.',
  fields: {
    description: nullable(Type.String({ maxLength: 255 })),
    routing_number: Type.String(),
    account_number: Type.String(),
    account_type: Type.Union([Type.Literal('company'), Type.Literal('individual')]),
    signatory: Type.String(),
    check_template: checkTemplate(),
    fractional_routing_number: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    state: Type.Optional(Type.String()),
    zipcode: Type.Optional(Type.String()),
    signature_url: nullable(Type.String({ description: 'Signed link to the signature image, if one was given.' })),
    bank_name: Type.String({
      description: 'The bank, from the routing number where the engine knows it; empty otherwise.',
    }),
    verified: Type.Boolean({ description: 'Whether the micro-deposits were confirmed; checks need true.' }),
    microdeposit_type: nullable(Type.Literal('amounts')),
    metadata: metadata(),
  },
  operations: Object.values(bankAccountOperations),
  events: ['bank_account.created', 'bank_account.deleted', 'bank_account.verified'],
  sample: {
    id: 'bank_8cad8df5354d33f',
    description: 'Payroll',
    routing_number: '322271627',
    account_number: '123456789',
    account_type: 'company',
    signatory: 'Jane Doe',
    check_template: 'common',
    signature_url: null,
    bank_name: '',
    verified: false,
    microdeposit_type: 'amounts',
    metadata: {},
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'bank_account',
  },
});
