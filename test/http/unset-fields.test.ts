// Fields without a value are answered as the vendor's schema types them: left out where it types a
// plain string (letters' and checks' template ids, checks' message), null where it marks them
// nullable (cards' and mailers' template ids, failure_reason, memo, a bank account's signature_url).
// Create, retrieve and list answers of every kind validate against the vendor's schema, nothing pinned.
import { databaseSuite } from '../helpers/suite';
import { check, letter, pieceVendorErrors, postcard, selfMailer, snapPack, verifiedBankAccount } from '../helpers/mail';

const { test } = databaseSuite();

const CHECK_TEMPLATE_IDS = [
  'check_bottom_template_id',
  'check_bottom_template_version_id',
  'attachment_template_id',
  'attachment_template_version_id',
];

test('letters and checks leave out the plain-string fields they have no value for', async (t, { api }) => {
  const plain = (await api('POST', '/v1/letters', { json: letter() })).body;
  t.false('template_id' in plain);
  t.false('template_version_id' in plain);
  t.is(plain.extra_service, null, 'the vendor marks extra_service nullable');
  t.is(plain.failure_reason, null);

  const template = (await api('POST', '/v1/templates', { json: { html: '<p>Dear {{name}}</p>' } })).body;
  const named = (await api('POST', '/v1/letters', { json: letter({ file: template.id }) })).body;
  t.is(named.template_id, template.id);
  t.is(named.template_version_id, template.published_version.id);

  const bank = await verifiedBankAccount(api);
  const bare = (await api('POST', '/v1/checks', { json: check(bank) })).body;
  for (const field of ['message', ...CHECK_TEMPLATE_IDS]) t.false(field in bare, field);
  t.is(bare.memo, null, 'the vendor marks memo nullable');
  t.is(bare.bank_account.signature_url, null);
  const fetched = (await api('GET', `/v1/checks/${bare.id}`)).body;
  for (const field of ['message', ...CHECK_TEMPLATE_IDS]) t.false(field in fetched, `retrieve: ${field}`);
  const listed = (await api('GET', '/v1/checks?limit=1')).body;
  t.false('message' in listed.data[0], 'lists too');
  const withMessage = (await api('POST', '/v1/checks', { json: check(bank, { message: 'Thanks' }) })).body;
  t.is(withMessage.message, 'Thanks');
});

test('cards, mailers and snap packs keep their nullable template ids as null', async (t, { api }) => {
  const card = (await api('POST', '/v1/postcards', { json: postcard() })).body;
  for (const field of [
    'front_template_id',
    'front_template_version_id',
    'back_template_id',
    'back_template_version_id',
  ])
    t.is(card[field], null, field);
  for (const [path, body] of [
    ['/v1/self_mailers', selfMailer()],
    ['/v1/snap_packs', snapPack()],
  ] as const) {
    const piece = (await api('POST', path, { json: body })).body;
    for (const field of ['inside_template_id', 'outside_template_version_id'])
      t.is(piece[field], null, `${path} ${field}`);
  }
});

test('create, retrieve and list answers of every kind validate against the vendor schema', async (t, { api }) => {
  const bank = await verifiedBankAccount(api);
  const kinds: [string, Record<string, unknown>][] = [
    ['/v1/postcards', postcard()],
    ['/v1/letters', letter()],
    ['/v1/self_mailers', selfMailer()],
    ['/v1/snap_packs', snapPack()],
    ['/v1/checks', check(bank)],
  ];
  for (const [path, json] of kinds) {
    const created = await api('POST', path, { json });
    t.is(created.status, 200, JSON.stringify(created.body));
    t.deepEqual(pieceVendorErrors('POST', path, created.body), [], `POST ${path}`);
    const fetched = await api('GET', `${path}/${created.body.id}`);
    t.deepEqual(pieceVendorErrors('GET', `${path}/${created.body.id}`, fetched.body), [], `GET ${path}/id`);
    const listed = await api('GET', `${path}?limit=2`);
    t.deepEqual(pieceVendorErrors('GET', path, listed.body), [], `GET ${path}`);
  }
});
