// Letters, checks, self mailers and snap packs over HTTP on both databases: each kind's own fields
// and rules (the shared ones are tested through postcards).
import { databaseSuite } from '../helpers/suite';
import {
  ABROAD,
  TO,
  check,
  letter,
  pieceVendorErrors,
  selfMailer,
  snapPack,
  verifiedBankAccount,
} from '../helpers/mail';

const { test, serial } = databaseSuite();

type Refusal = [string, Record<string, unknown>, string, RegExp];

function refusalsOf(path: string, body: (extra: Record<string, unknown>) => Record<string, unknown>, list: Refusal[]) {
  for (const [what, change, code, message] of list) {
    test(`${path} refuses ${what}`, async (t, { api }) => {
      const reply = await api('POST', path, { json: body(change) });
      t.true(reply.status === 422 || reply.status === 404, `${reply.status} ${JSON.stringify(reply.body)}`);
      t.is(reply.body.error.code, code, JSON.stringify(reply.body));
      t.regex(reply.body.error.message, message);
    });
  }
}

test('a letter from a template id: every field, the published version recorded, vendor schema', async (t, { api }) => {
  const template = (
    await api('POST', '/v1/templates', { json: { html: '<p>Dear {{name}}</p>', engine: 'handlebars' } })
  ).body;
  const reply = await api('POST', '/v1/letters', { json: letter({ file: template.id }) });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.regex(reply.body.id, /^ltr_/);
  t.like(reply.body, {
    object: 'letter',
    color: false,
    double_sided: true,
    address_placement: 'top_first_page',
    extra_service: null,
    tracking_number: null,
    return_envelope: false,
    perforated_page: null,
    custom_envelope: null,
    cards: null,
    template_id: template.id,
    template_version_id: template.published_version.id,
  });
  t.false('size' in reply.body, 'the account version (2020-02-11) does not show size');
  t.deepEqual(pieceVendorErrors('POST', '/v1/letters', reply.body), []);
  // (the vendor's letter oneOf lets a certified letter match its regular branch too, so it is not checked)
  const certified = await api('POST', '/v1/letters', { json: letter({ extra_service: 'certified' }) });
  t.is(certified.body.extra_service, 'certified');
  t.regex(
    certified.body.tracking_number,
    /^93921999999\d{11}$/,
    'certified test letters get a sample number (the sample Mailer ID) at once',
  );
});

test('letter size needs Service-Version 2024-01-01; from then on it is always shown', async (t, { api }) => {
  const old = await api('POST', '/v1/letters', { json: letter({ size: 'us_legal' }) });
  t.is(old.status, 422);
  t.regex(old.body.error.message, /^size needs Service-Version 2024-01-01 or later/);
  const v2024 = { 'Service-Version': '2024-01-01' };
  const legal = await api('POST', '/v1/letters', { json: letter({ size: 'us_legal' }), headers: v2024 });
  t.is(legal.status, 200, JSON.stringify(legal.body));
  t.is(legal.body.size, 'us_legal');
  const plain = await api('POST', '/v1/letters', { json: letter(), headers: v2024 });
  t.is(plain.body.size, 'us_letter');
  t.is((await api('GET', `/v1/letters/${plain.body.id}`, { headers: v2024 })).body.size, 'us_letter');
  t.false('size' in (await api('GET', `/v1/letters/${plain.body.id}`)).body);
  const listed = await api('GET', '/v1/letters?limit=1');
  t.false('size' in listed.body.data[0], 'lists hide it for older versions too');
  const legalExtra = await api('POST', '/v1/letters', {
    json: letter({ size: 'us_legal', extra_service: 'certified' }),
    headers: v2024,
  });
  t.is(legalExtra.status, 422, 'no extra service on us_legal');
  const legalCards = await api('POST', '/v1/letters', {
    json: letter({ size: 'us_legal', cards: ['card_1'] }),
    headers: v2024,
  });
  t.is(legalCards.status, 422, 'no cards on us_legal');
});

refusalsOf('/v1/letters', letter, [
  ['no color', { color: undefined }, 'invalid', /^color is required$/],
  ['no from', { from: undefined }, 'invalid', /^from is required$/],
  [
    'an extra service with usps_standard',
    { extra_service: 'certified', mail_type: 'usps_standard' },
    'invalid',
    /usps_standard/,
  ],
  ['two cards', { cards: ['card_a', 'card_b'] }, 'invalid', /^cards must contain at most 1 items$/],
  [
    'a return envelope without perforation',
    { return_envelope: true },
    'invalid_perforation_return_envelope',
    /perforated_page/,
  ],
  [
    'a perforation without envelope',
    { perforated_page: 1 },
    'invalid_perforation_return_envelope',
    /needs return_envelope/,
  ],
  ['a custom envelope', { custom_envelope: 'env_123' }, 'custom_envelope_inventory_depleted', /env_123/],
  ['certified mail abroad', { to: ABROAD, extra_service: 'certified' }, 'invalid_international_feature', /certified/],
  ['an unknown address placement', { address_placement: 'middle' }, 'invalid', /^address_placement must be one of/],
]);

test('letters: registered mail to a US address, as the vendor accepts it (its SDK test creates one)', async (t, {
  api,
}) => {
  const reply = await api('POST', '/v1/letters', { json: letter({ extra_service: 'registered' }) });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.is(reply.body.to.address_country, 'UNITED STATES');
  t.is(reply.body.extra_service, 'registered');
  // the S10 form USPS gives registered mail, the one its cover sheet and ticket print
  t.regex(reply.body.tracking_number, /^RR99\d{7}US$/, 'a sample number (the sample S10 range) at once');
  t.is((await api('GET', `/v1/letters/${reply.body.id}`)).body.extra_service, 'registered');
});

test('letters: return envelope with perforation, registered abroad, color filter', async (t, { api }) => {
  const envelope = await api('POST', '/v1/letters', { json: letter({ return_envelope: true, perforated_page: 2 }) });
  t.is(envelope.status, 200, JSON.stringify(envelope.body));
  t.like(envelope.body, { return_envelope: true, perforated_page: 2 });
  const registered = await api('POST', '/v1/letters', { json: letter({ to: ABROAD, extra_service: 'registered' }) });
  t.is(registered.status, 200, JSON.stringify(registered.body));
  const colored = (await api('POST', '/v1/letters', { json: letter({ color: true }) })).body;
  const listed = await api('GET', '/v1/letters?color=true&limit=100');
  t.true(listed.body.data.every((l: { color: boolean }) => l.color === true));
  t.true(listed.body.data.some((l: { id: string }) => l.id === colored.id));
});

serial('checks: numbered per bank account from 10000, a given number continues; vendor schema', async (t, { api }) => {
  const bank = await verifiedBankAccount(api);
  const first = await api('POST', '/v1/checks', { json: check(bank, { memo: 'rent', message: 'Thanks' }) });
  t.is(first.status, 200, JSON.stringify(first.body));
  t.like(first.body, { object: 'check', amount: 22.5, memo: 'rent', message: 'Thanks', check_number: 10000 });
  t.is(first.body.bank_account.id, bank);
  t.is(first.body.mail_type, 'usps_first_class');
  t.deepEqual(pieceVendorErrors('POST', '/v1/checks', first.body), []);
  t.is((await api('POST', '/v1/checks', { json: check(bank) })).body.check_number, 10001);
  t.is((await api('POST', '/v1/checks', { json: check(bank, { check_number: 20000 }) })).body.check_number, 20000);
  t.is((await api('POST', '/v1/checks', { json: check(bank) })).body.check_number, 20001);
  const other = await verifiedBankAccount(api);
  t.is((await api('POST', '/v1/checks', { json: check(other) })).body.check_number, 10000, 'each account counts alone');
});

test('checks: unverified, deleted and unknown bank accounts', async (t, { api }) => {
  const unverified = (
    await api('POST', '/v1/bank_accounts', {
      json: { routing_number: '322271627', account_number: '1', account_type: 'individual', signatory: 'A' },
    })
  ).body;
  const refused = await api('POST', '/v1/checks', { json: check(unverified.id) });
  t.is(refused.status, 422);
  t.is(refused.body.error.code, 'bank_error');
  const bank = await verifiedBankAccount(api);
  await api('DELETE', `/v1/bank_accounts/${bank}`);
  const deleted = await api('POST', '/v1/checks', { json: check(bank) });
  t.is(deleted.status, 404);
  t.is(deleted.body.error.code, 'deleted_bank_account');
  const unknown = await api('POST', '/v1/checks', { json: check('bank_nope') });
  t.is(unknown.status, 404);
  t.is(unknown.body.error.code, 'not_found');
});

test('checks refuse what the spec forbids', async (t, { api }) => {
  const bank = await verifiedBankAccount(api);
  const cases: Refusal[] = [
    ['three decimals', { amount: 10.125 }, 'invalid', /^amount must have at most two decimal places$/],
    ['a million dollars', { amount: 1_000_000 }, 'invalid', /^amount must be less than or equal to 999999.99$/],
    ['usps_standard', { mail_type: 'usps_standard' }, 'invalid', /^mail_type must be "usps_first_class"$/],
    ['a memo of 41', { memo: 'm'.repeat(41) }, 'invalid', /^memo must be at most 40 characters$/],
    ['a message of 401', { message: 'm'.repeat(401) }, 'invalid', /^message must be at most 400 characters$/],
    ['a payee abroad', { to: ABROAD }, 'invalid_check_international', /Checks can only be sent to US addresses/],
    [
      'payee lines over 50 together',
      { to: { ...TO, address_line1: '1234 Extraordinarily Long Boulevard Name', address_line2: 'Suite 1000000' } },
      'address_length_exceeds_limit',
      /to\.address_line1 and to\.address_line2 must be at most 50 characters together/,
    ],
    ['no from', { from: undefined }, 'invalid', /^from is required$/],
    ['check number 0', { check_number: 0 }, 'invalid', /^check_number must be greater than or equal to 1$/],
  ];
  for (const [what, change, code, message] of cases) {
    const reply = await api('POST', '/v1/checks', { json: check(bank, change) });
    t.is(reply.body.error?.code, code, `${what}: ${JSON.stringify(reply.body)}`);
    t.regex(reply.body.error.message, message, what);
  }
});

test('self mailers: sizes, fsc rule, US only; vendor schema', async (t, { api }) => {
  const reply = await api('POST', '/v1/self_mailers', { json: selfMailer({ size: '12x9_bifold', fsc: true }) });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.regex(reply.body.id, /^sfm_/);
  t.like(reply.body, { size: '12x9_bifold', fsc: true, inside_template_id: null, outside_template_version_id: null });
  t.deepEqual(pieceVendorErrors('POST', '/v1/self_mailers', reply.body), []);
  t.is((await api('GET', `/v1/self_mailers/${reply.body.id}`)).body.id, reply.body.id);
  const fsc = await api('POST', '/v1/self_mailers', { json: selfMailer({ size: '11x9_bifold', fsc: true }) });
  t.is(fsc.status, 422);
  const abroad = await api('POST', '/v1/self_mailers', { json: selfMailer({ to: ABROAD }) });
  t.is(abroad.body.error.code, 'invalid_international_feature');
  t.deepEqual((await api('DELETE', `/v1/self_mailers/${reply.body.id}`)).body, { id: reply.body.id, deleted: true });
});

test('snap packs: ord_ ids of 26 hex, color, no fsc nor QR code, US only; vendor schema', async (t, { api }) => {
  const reply = await api('POST', '/v1/snap_packs', { json: snapPack({ color: true }) });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.regex(reply.body.id, /^ord_[0-9a-f]{26}$/);
  t.like(reply.body, { size: '8.5x11', color: true, object: 'snap_pack' });
  t.deepEqual(pieceVendorErrors('POST', '/v1/snap_packs', reply.body), []);
  t.is((await api('GET', `/v1/snap_packs/${reply.body.id}`)).status, 200);
  t.is((await api('POST', '/v1/snap_packs', { json: snapPack({ fsc: true }) })).status, 422);
  const qr = { position: 'relative', redirect_url: 'https://example.com', width: 1 };
  t.is((await api('POST', '/v1/snap_packs', { json: snapPack({ qr_code: qr }) })).status, 422);
  t.is((await api('POST', '/v1/snap_packs', { json: snapPack({ to: ABROAD }) })).status, 422);
  t.is((await api('GET', '/v1/snap_packs/ord_nothex')).status, 404);
  const listed = await api('GET', '/v1/snap_packs?color=true&limit=100');
  t.true(listed.body.data.some((p: { id: string }) => p.id === reply.body.id));
  t.deepEqual((await api('DELETE', `/v1/snap_packs/${reply.body.id}`)).body, { id: reply.body.id, deleted: true });
});
