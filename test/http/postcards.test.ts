// Postcards over HTTP on both databases, and with them the rules every mailpiece kind shares: parties,
// artwork, merge variables, send_date and expected delivery, use_type, placement, billing groups.
import { databaseSuite } from '../helpers/suite';
import { ABROAD, TO, daysAhead, pieceVendorErrors, postcard } from '../helpers/mail';

const { test } = databaseSuite();

test('a postcard from inline addresses and HTML: every field, addresses saved, vendor schema, form body alike', async (t, {
  api,
}) => {
  const created = await api('POST', '/v1/postcards', {
    json: postcard({ description: 'Spring', metadata: { batch: '7' } }),
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  const piece = created.body;
  t.regex(piece.id, /^psc_[0-9a-f]{16}$/);
  t.like(piece, {
    object: 'postcard',
    status: 'processed',
    size: '4x6',
    mail_type: 'usps_first_class',
    use_type: 'marketing',
    carrier: 'USPS',
    fsc: false,
    description: 'Spring',
    metadata: { batch: '7' },
    merge_variables: { name: 'Harry' },
    front_template_id: null,
    back_template_version_id: null,
    failure_reason: null,
    campaign_id: null,
  });
  t.deepEqual(piece.tracking_events, []);
  t.deepEqual(piece.thumbnails, []);
  t.like(piece.to, {
    name: 'HARRY ZHANG',
    address_line1: '210 KING ST',
    address_country: 'UNITED STATES',
    object: 'address',
  });
  t.like(piece.from, { name: 'LEORE AVIDAR', address_line1: '185 BERRY ST' });
  t.is(piece.send_date, piece.date_created, 'unscheduled: sent when created');
  t.regex(piece.expected_delivery_date, /^\d{4}-\d\d-\d\d$/);
  t.deepEqual(pieceVendorErrors('POST', '/v1/postcards', piece), []);
  t.is(new URL(piece.url).pathname, `/assets/postcards/${piece.id}.pdf`, 'the link of the PDF it will have');
  // each answer signs its link afresh (its expiry may be a second later): the rest is the same
  const { url: link, ...fetched } = (await api('GET', `/v1/postcards/${piece.id}`)).body;
  const { url: _created, ...rest } = piece;
  t.deepEqual(fetched, rest);
  t.is(new URL(link).pathname, new URL(piece.url).pathname);
  const saved = await api('GET', `/v1/addresses/${piece.to.id}`);
  t.is(saved.status, 200, 'an inline to is saved to the address book');
  t.is(saved.body.address_line1, '210 KING ST');

  const form = new URLSearchParams({ use_type: 'marketing', front: '<h1>F</h1>', back: '<p>B</p>' });
  for (const [k, v] of Object.entries(TO)) form.set(`to[${k}]`, v);
  form.set('from', piece.from.id);
  form.set('merge_variables[name]', 'Harry');
  const viaForm = await api('POST', '/v1/postcards', { form: form.toString() });
  t.is(viaForm.status, 200, JSON.stringify(viaForm.body));
  t.is(viaForm.body.from.id, piece.from.id, 'from given by id is the saved address');
});

test('to and from by id; an unknown or deleted address is 404', async (t, { api }) => {
  const to = (await api('POST', '/v1/addresses', { json: TO })).body;
  const ok = await api('POST', '/v1/postcards', { json: postcard({ to: to.id }) });
  t.is(ok.status, 200);
  t.deepEqual(ok.body.to, to);
  await api('DELETE', `/v1/addresses/${to.id}`);
  const gone = await api('POST', '/v1/postcards', { json: postcard({ to: to.id }) });
  t.is(gone.status, 404);
  t.is(gone.body.error.message, `to address ${to.id} not found`);
  const bad = await api('POST', '/v1/postcards', { json: postcard({ from: 'adr_nope' }) });
  t.is(bad.status, 404);
});

const refusals: [string, Record<string, unknown>, string, RegExp][] = [
  ['no to', { to: undefined }, 'invalid', /^to is required$/],
  ['no front', { front: undefined }, 'invalid', /^front is required$/],
  [
    'an inline to without a city',
    { to: { ...TO, address_city: undefined } },
    'invalid',
    /^to\.address_city is required$/,
  ],
  ['HTML of 10,000 characters', { front: `<p>${'x'.repeat(9_995)}</p>` }, 'invalid', /^front/],
  ['artwork that is none of the four forms', { back: 'just words' }, 'invalid', /^back must be HTML, a template id/],
  [
    'a URL that is not http(s)',
    { back: 'ftp://example.com/a.pdf' },
    'invalid_file_url',
    /^back must be an http or https URL$/,
  ],
  [
    'HTML that is not a valid template',
    { front: '<p>{{#if}}</p>' },
    'invalid_template_html',
    /^front is not a valid template/,
  ],
  [
    'a JSON object shaped like an upload (it must not name a file on the server)',
    {
      front: { upload: true, field: 'front', path: '/etc/passwd', filename: 'x.html', mimeType: 'text/html', size: 1 },
    },
    'invalid',
    /^front is invalid/,
  ],
  [
    'HTML with more merge tags than the limit',
    { front: `<p>${'{{a}}'.repeat(1_001)}</p>` },
    'invalid_template_html',
    /^front uses more than 1,000 \{\{…\}\} merge tags/,
  ],
  [
    'a merge variable with whitespace',
    { merge_variables: { 'first name': 'H' } },
    'merge_variable_whitespace',
    /first name/,
  ],
  [
    'a merge variable with a restricted character',
    { merge_variables: { 'a*b': 1 } },
    'special_characters_restricted',
    /a\*b/,
  ],
  ['a nested restricted name', { merge_variables: { a: { 'b@c': 1 } } }, 'special_characters_restricted', /b@c/],
  ['merge variables over 25,000 characters', { merge_variables: { a: 'x'.repeat(25_000) } }, 'invalid', /25000/],
  ['a send_date in the past', { send_date: '2020-01-01' }, 'invalid', /^send_date must be after the current time$/],
  ['a send_date over 180 days ahead', { send_date: daysAhead(181) }, 'invalid', /^send_date must be at most 180 days/],
  ['a send_date that is no date', { send_date: 'tomorrow' }, 'invalid', /^send_date must be an ISO 8601/],
  ['no use_type without an account default', { use_type: undefined }, 'invalid', /^use_type is required/],
  ['use_type null without an account default', { use_type: null }, 'invalid', /^use_type is required/],
  ['an unknown use_type', { use_type: 'promo' }, 'invalid', /^use_type must be/],
  ['usps_standard on a 4x6', { mail_type: 'usps_standard' }, 'invalid', /usps_standard is not available for 4x6/],
  ['fsc on a 4x6', { fsc: true }, 'invalid', /^fsc is not available when size is 4x6$/],
  ['a 6x9 abroad', { to: ABROAD, size: '6x9' }, 'invalid_international_feature', /size 6x9/],
  ['abroad without from', { to: ABROAD, from: undefined }, 'invalid', /^from is required when to is outside the US$/],
  ['usps_standard abroad', { to: ABROAD, size: '4x6', mail_type: 'usps_standard' }, 'invalid', /usps_standard/],
  ['a sender abroad', { from: ABROAD }, 'foreign_return_address', /^from must be a US address$/],
  ['an unknown billing group', { billing_group_id: 'bg_nope' }, 'not_found', /^billing_group_id bg_nope not found$/],
  ['an unknown template', { front: 'tmpl_nope' }, 'not_found', /^front template tmpl_nope not found$/],
  [
    'a qr_code without redirect_url',
    { qr_code: { position: 'relative', width: 2 } },
    'invalid',
    /qr_code\.redirect_url/,
  ],
  ['an unknown field', { colour: true }, 'invalid', /^colour is not allowed$/],
];

for (const [what, change, code, message] of refusals) {
  test(`refused: ${what}`, async (t, { api }) => {
    const reply = await api('POST', '/v1/postcards', { json: postcard(change) });
    t.true(reply.status === 422 || reply.status === 404, `${reply.status} ${JSON.stringify(reply.body)}`);
    t.is(reply.body.error.code, code, JSON.stringify(reply.body));
    t.regex(reply.body.error.message, message);
    t.is(reply.body.error.status_code, reply.status);
  });
}

test('a postcard abroad: 4x6 first class with a US from; delivery expected 11 business days out', async (t, {
  api,
}) => {
  const reply = await api('POST', '/v1/postcards', { json: postcard({ to: ABROAD, send_date: '2027-03-01' }) });
  const monday = Date.parse('2027-03-01');
  if (monday <= Date.now() || monday > Date.now() + 180 * 86_400_000) {
    t.pass('the fixed date is outside the send window on this clock');
    return;
  }
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.is(reply.body.to.address_country, 'CANADA');
  // Monday 2027-03-01 + 11 business days (no holidays in between)
  t.is(reply.body.expected_delivery_date, '2027-03-16');
});

test('send_date: a date alone is midnight UTC, offsets convert; delivery counts business days past holidays', async (t, {
  api,
}) => {
  const day = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const dateOnly = await api('POST', '/v1/postcards', { json: postcard({ send_date: day }) });
  t.is(dateOnly.status, 200, JSON.stringify(dateOnly.body));
  t.is(dateOnly.body.send_date, `${day}T00:00:00.000Z`);
  const offset = await api('POST', '/v1/postcards', { json: postcard({ send_date: `${day}T09:30:00-05:00` }) });
  t.is(offset.body.send_date, `${day}T14:30:00.000Z`);
  const noZone = await api('POST', '/v1/postcards', { json: postcard({ send_date: `${day}T09:30:00` }) });
  t.is(noZone.body.send_date, `${day}T09:30:00.000Z`);
});

test('use_type falls back to the account default; null is then allowed', async (t, { api, engine }) => {
  const name = `default-use-${Math.random()}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('default_use_type', 'operational', name);
  const reply = await api('POST', '/v1/postcards', { key: keys.test, json: postcard({ use_type: null }) });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.is(reply.body.use_type, 'operational');
  const absent = await api('POST', '/v1/postcards', { key: keys.test, json: postcard({ use_type: undefined }) });
  t.is(absent.body.use_type, 'operational');
});

test('a to failing the account US mail strictness is refused; relaxed lets it through', async (t, { api, engine }) => {
  const name = `strict-${Math.random()}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('us_mail_strictness', 'strict', name);
  const undeliverable = { ...TO, address_line1: 'undeliverable no match' };
  const refused = await api('POST', '/v1/postcards', { key: keys.test, json: postcard({ to: undeliverable }) });
  t.is(refused.status, 422);
  t.is(refused.body.error.code, 'failed_deliverability_strictness');
  const fine = await api('POST', '/v1/postcards', { key: keys.test, json: postcard() });
  t.is(fine.status, 200, 'a deliverable address passes strict');
  const relaxed = await api('POST', '/v1/postcards', { json: postcard({ to: undeliverable }) });
  t.is(relaxed.status, 200, 'the default account is relaxed');
});

test('merge variables: template required_vars and strict strictness need them; relaxed renders them empty', async (t, {
  api,
  engine,
}) => {
  const template = await api('POST', '/v1/templates', {
    json: { html: '<p>Hi {{name}} from {{city}}</p>', engine: 'handlebars', required_vars: ['name'] },
  });
  t.is(template.status, 200);
  const missing = await api('POST', '/v1/postcards', {
    json: postcard({ front: template.body.id, merge_variables: {} }),
  });
  t.is(missing.status, 422);
  t.is(missing.body.error.code, 'merge_variable_required');
  t.regex(missing.body.error.message, /merge_variables\.name/);
  const ok = await api('POST', '/v1/postcards', { json: postcard({ front: template.body.id }) });
  t.is(ok.status, 200, 'city is not required under relaxed strictness');
  t.is(ok.body.front_template_id, template.body.id);
  t.is(ok.body.front_template_version_id, template.body.published_version.id);
  t.is(ok.body.back_template_id, null);

  const name = `merge-strict-${Math.random()}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('merge_variable_strictness', 'strict', name);
  const strict = await api('POST', '/v1/postcards', {
    key: keys.test,
    json: postcard({ front: '<p>{{name}} {{#if vip}}VIP{{/if}} {{#each items}}{{label}}{{/each}}</p>' }),
  });
  t.is(strict.status, 422);
  t.is(strict.body.error.code, 'merge_variable_required');
  t.regex(strict.body.error.message, /merge_variables\.(vip|items)/);
  const supplied = await api('POST', '/v1/postcards', {
    key: keys.test,
    json: postcard({
      front: '<p>{{name}} {{#if vip}}VIP{{/if}} {{#each items}}{{label}}{{/each}}</p>',
      merge_variables: { name: 'H', vip: true, items: [{ label: 'a' }] },
    }),
  });
  t.is(supplied.status, 200, 'names inside each are the items, not the piece');
});

test('publishing a new version changes what later pieces record, not earlier ones', async (t, { api }) => {
  const template = (await api('POST', '/v1/templates', { json: { html: '<p>v1</p>' } })).body;
  const first = (await api('POST', '/v1/postcards', { json: postcard({ back: template.id }) })).body;
  const v2 = (await api('POST', `/v1/templates/${template.id}/versions`, { json: { html: '<p>v2</p>' } })).body;
  await api('POST', `/v1/templates/${template.id}`, { json: { published_version: v2.id } });
  const second = (await api('POST', '/v1/postcards', { json: postcard({ back: template.id }) })).body;
  t.is(first.back_template_version_id, template.published_version.id);
  t.is(second.back_template_version_id, v2.id);
  t.is((await api('GET', `/v1/postcards/${first.id}`)).body.back_template_version_id, template.published_version.id);
});

test('a billing group that exists is recorded and filters nothing away', async (t, { api }) => {
  const group = (await api('POST', '/v1/billing_groups', { json: { name: 'Spring' } })).body;
  const reply = await api('POST', '/v1/postcards', { json: postcard({ billing_group_id: group.id }) });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.is(reply.body.billing_group_id, group.id);
});

// remote artwork URLs are fetched at create: test/http/artwork-files.test.ts serves them locally
test('a QR code and fsc on a 6x9 are taken', async (t, { api }) => {
  const reply = await api('POST', '/v1/postcards', {
    json: postcard({
      size: '6x9',
      fsc: true,
      qr_code: {
        position: 'relative',
        redirect_url: 'https://example.com',
        width: 2,
        top: 1,
        right: 1,
        pages: 'front',
      },
    }),
  });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.like(reply.body, { size: '6x9', fsc: true, front_template_id: null });
});

test('test mode: an NCOA to comes back as the moved sample', async (t, { api }) => {
  const reply = await api('POST', '/v1/postcards', { json: postcard({ to: { ...TO, address_line1: 'NCOA' } }) });
  t.is(reply.status, 200);
  t.is(reply.body.to.recipient_moved, true);
  t.is(reply.body.to.address_line1, '1313 CEMETERY LN');
});

test('live mode: a piece needs a payment method and a verified e-mail; test keys cannot see live pieces', async (t, {
  api,
  engine,
}) => {
  const name = `live-${Math.random()}`;
  const keys = await engine.createAccount(name);
  const unpaid = await api('POST', '/v1/postcards', { key: keys.live, json: postcard() });
  t.is(unpaid.status, 401);
  t.is(unpaid.body.error.code, 'payment_method_unverified');
  await engine.setSetting('payment_method_verified', true, name);
  const noEmail = await api('POST', '/v1/postcards', { key: keys.live, json: postcard() });
  t.is(noEmail.status, 401);
  t.is(noEmail.body.error.code, 'email_required');
  await engine.setSetting('email_verified', true, name);
  const live = await api('POST', '/v1/postcards', { key: keys.live, json: postcard() });
  t.is(live.status, 200, JSON.stringify(live.body));
  t.is(live.body.to.recipient_moved, null, 'live mode has no change-of-address data');
  t.is((await api('GET', `/v1/postcards/${live.body.id}`, { key: keys.test })).status, 404);
  t.is((await api('GET', `/v1/postcards/${live.body.id}`, { key: keys.live })).status, 200);
});

test('live inline addresses are saved to the book and count against the edition limit', async (t, { api, engine }) => {
  const name = `live-limit-${Math.random()}`;
  const keys = await engine.createAccount(name);
  for (const [setting, value] of [
    ['payment_method_verified', true],
    ['email_verified', true],
    ['address_limit', 3],
  ] as const)
    await engine.setSetting(setting, value, name);
  t.is((await api('POST', '/v1/postcards', { key: keys.live, json: postcard() })).status, 200, 'to and from: 2 of 3');
  const full = await api('POST', '/v1/postcards', { key: keys.live, json: postcard() });
  t.is(full.status, 403);
  t.is(full.body.error.code, 'feature_limit_reached');
  const saved = (await api('POST', '/v1/addresses', { key: keys.live, json: TO })).body;
  t.regex(saved.id, /^adr_/, 'the refused piece took no place');
  const byId = await api('POST', '/v1/postcards', {
    key: keys.live,
    json: postcard({ to: saved.id, from: saved.id }),
  });
  t.is(byId.status, 200, 'saved addresses by id take no new place');
});
