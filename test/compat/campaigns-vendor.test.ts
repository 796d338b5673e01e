// The vendor's own suites on campaigns, creatives and uploads (both databases): a campaign created with
// use_type null or absent takes the account's default_use_type as pieces do; a creative without `from`
// leaves the key out (the vendor types it a plain string, not nullable); a missing field is named as
// itself; upload and export creates answer the objects, with ids, the vendor's OpenAPI describes. Each
// answer is checked against that document. The vendor's TypeScript SDK 1.4 cannot drive these: its
// package exports no campaigns, creatives or uploads API (their files ship, unexported).
import type { ExecutionContext } from 'ava';
import { databaseSuite, type SuiteContext } from '../helpers/suite';
import { client } from '../helpers/http';
import { vendorDocument, vendorResponseErrors } from '../helpers/vendorSchema';
import { FRONT, BACK } from '../helpers/campaign';
import { FROM } from '../helpers/mail';
import { CSV_HEADER, MAPPING, csvRow, sendFile } from '../helpers/audience';

const { test } = databaseSuite();

/** An account of its own whose default use type is `operational`. */
async function defaultedAccount({ engine }: SuiteContext) {
  const name = `vendor-${Math.random().toString(36).slice(2)}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('default_use_type', 'operational', name);
  return { api: client(engine.url, keys.test), key: keys.test };
}

const conforms = (t: ExecutionContext, method: string, path: string, status: number, body: unknown) =>
  t.deepEqual(vendorResponseErrors(method, path, status, body), [], JSON.stringify(body));

/**
 * The vendor's creative schema lists `from` as required in answers yet lets a postcard or self mailer
 * creative be created without one, and types it without null: a creative with no sender can satisfy
 * only the type, by leaving the key out. That one required-property error is pinned, nothing else.
 */
const MISSING_FROM = /^\(root\) must have required property 'from' \[creative#/;
const conformsWithoutSender = (t: ExecutionContext, method: string, path: string, body: unknown) =>
  t.deepEqual(
    vendorResponseErrors(method, path, 200, body).filter((error) => !MISSING_FROM.test(error)),
    [],
    JSON.stringify(body),
  );

test("a campaign created with use_type null or absent takes the account's default_use_type", async (t, ctx) => {
  const { api } = await defaultedAccount(ctx);
  for (const use_type of [null, undefined]) {
    const reply = await api('POST', '/v1/campaigns', {
      json: { name: 'Defaulted', schedule_type: 'immediate', use_type },
    });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(reply.body.use_type, 'operational');
    conforms(t, 'POST', '/v1/campaigns', 200, reply.body);
  }
});

test('a campaign without use_type on an account without a default is refused, naming use_type', async (t, ctx) => {
  const keys = await ctx.engine.createAccount();
  const api = client(ctx.engine.url, keys.test);
  const reply = await api('POST', '/v1/campaigns', {
    json: { name: 'No type', schedule_type: 'immediate', use_type: null },
  });
  t.is(reply.status, 422, JSON.stringify(reply.body));
  t.regex(reply.body.error.message, /^use_type /);
  t.is((await api('GET', '/v1/campaigns')).body.data.length, 0, 'nothing stored');
});

test('a creative without from leaves the key out, in its create, retrieve and list answers', async (t, ctx) => {
  const { api } = await defaultedAccount(ctx);
  const cmp = await api('POST', '/v1/campaigns', {
    json: { name: 'No sender', schedule_type: 'immediate', use_type: 'marketing' },
  });
  const body = { resource_type: 'postcard', campaign_id: cmp.body.id, front: FRONT, back: BACK, details: {} };
  const created = await api('POST', '/v1/creatives', { json: body });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.false('from' in created.body, JSON.stringify(created.body));
  conformsWithoutSender(t, 'POST', '/v1/creatives', created.body);
  const got = await api('GET', `/v1/creatives/${created.body.id}`);
  t.false('from' in got.body);
  conformsWithoutSender(t, 'GET', `/v1/creatives/${created.body.id}`, got.body);
  const list = await api('GET', `/v1/creatives?campaign_id=${cmp.body.id}`);
  t.false('from' in list.body.data[0]);
});

test('a creative missing details is refused naming details, not from', async (t, ctx) => {
  const { api } = await defaultedAccount(ctx);
  const cmp = await api('POST', '/v1/campaigns', {
    json: { name: 'Details', schedule_type: 'immediate', use_type: 'marketing' },
  });
  const reply = await api('POST', '/v1/creatives', {
    json: { resource_type: 'postcard', campaign_id: cmp.body.id, front: FRONT, back: BACK },
  });
  t.is(reply.status, 422, JSON.stringify(reply.body));
  t.is(reply.body.error.message, 'details is required');
  t.is(reply.body.error.code, 'invalid');
  // a letter without from or details: details is what is missing first, as the vendor names it
  const letter = await api('POST', '/v1/creatives', {
    json: { resource_type: 'letter', campaign_id: cmp.body.id, file: FRONT },
  });
  t.is(letter.body.error?.message, 'details is required', JSON.stringify(letter.body));
  // a field the kind needs inside details is named where it goes
  const colorless = await api('POST', '/v1/creatives', {
    json: { resource_type: 'letter', campaign_id: cmp.body.id, file: FRONT, from: FROM, details: {} },
  });
  t.is(colorless.body.error?.message, 'details.color is required', JSON.stringify(colorless.body));
  t.is((await api('GET', `/v1/creatives?campaign_id=${cmp.body.id}`)).body.data.length, 0, 'nothing stored');
});

test("our OpenAPI gives upload and export creates the vendor's id shapes", async (t, { api }) => {
  const ours = (await api('GET', '/v1/openapi.json')).body;
  const vendor = vendorDocument() as Record<string, any>;
  const answer = (path: string) => ours.paths[path].post.responses['200'].content['application/json'].schema;
  const schemas = ours.components.schemas as Record<string, Record<string, any>>;
  const upload = answer('/v1/uploads');
  const uploadSchema = upload.$ref ? schemas[String(upload.$ref).split('/').pop()!] : upload;
  t.is(uploadSchema.properties.id.pattern, vendor.components.schemas.upl_id.pattern);
  t.is(answer('/v1/uploads/{upl_id}/exports').properties.exportId.pattern, vendor.components.schemas.ex_id.pattern);
});

test("upload and export creates answer the vendor's objects, with ids of its shape", async (t, ctx) => {
  const { api, key } = await defaultedAccount(ctx);
  const cmp = await api('POST', '/v1/campaigns', {
    json: { name: 'Upload', schedule_type: 'immediate', use_type: 'marketing' },
  });
  const upload = await api('POST', '/v1/uploads', { json: { campaignId: cmp.body.id, ...MAPPING } });
  t.true(upload.status === 200 || upload.status === 201, JSON.stringify(upload.body));
  t.regex(upload.body.id, /^upl_[a-zA-Z0-9]+$/);
  conforms(t, 'POST', '/v1/uploads', 201, upload.body);
  const sent = await sendFile(ctx.engine.url, key, upload.body.id, `${[CSV_HEADER, csvRow(1)].join('\n')}\n`);
  t.is(sent.status, 200, JSON.stringify(sent.body));
  const exported = await api('POST', `/v1/uploads/${upload.body.id}/exports`, { json: { type: 'all' } });
  t.is(exported.status, 200, JSON.stringify(exported.body));
  t.regex(exported.body.exportId, /^ex_[a-zA-Z0-9]+$/);
  conforms(t, 'POST', `/v1/uploads/${upload.body.id}/exports`, 200, exported.body);
});
