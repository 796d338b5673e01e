// Mailpieces through the built Zapier app's tester against a real engine: flat inline addresses,
// HTML and merge variables, a letter from a template, a check on a verified bank account, cancel, and
// a file field: the file fetched from where Zapier keeps it (here a local server) and sent as multipart.
import test from 'ava';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { builtPacks } from './build-once';
import {
  FROM,
  TO,
  createAddress,
  createPostcards,
  createTemplate,
  minimalPdf,
  verifiedBankAccount,
} from './mail-fixtures';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const zapier = require('zapier-platform-core') as typeof import('zapier-platform-core');

type AnyObj = Record<string, any>;
let engine: TestEngine;
let app: AnyObj;
let appTester: ReturnType<typeof zapier.createAppTester>;
let files: http.Server;
let filesUrl: string;
/** The requests the file server saw: what Zapier's file fetch sent. */
const fetched: { url: string; authorization?: string }[] = [];

const auth = () => ({ authData: { api_key: engine.keys.test, base_url: engine.url } });
const api = () => client(engine.url, engine.keys.test);
/** `{name: 'x'}` as the flat `to__name` inputs of a Zap step. */
const flat = (prefix: string, address: Record<string, string>) =>
  Object.fromEntries(Object.entries(address).map(([k, v]) => [`${prefix}__${k}`, v]));
const perform = (key: string, inputData: AnyObj) =>
  appTester(app.creates[key].operation.perform, { ...auth(), inputData }) as Promise<AnyObj>;

test.before(async () => {
  engine = await startEngine({ settings: { rate_limit_per_5s: 100000 } });
  const { zapierDir } = await builtPacks();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  app = require(join(zapierDir, require(join(zapierDir, 'package.json')).main));
  appTester = zapier.createAppTester(app);
  const pdf = minimalPdf('zapier');
  files = http.createServer((req, res) => {
    fetched.push({ url: String(req.url), authorization: req.headers.authorization });
    if (req.url !== '/files/front.pdf') return void res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': 'application/pdf',
      'content-disposition': 'attachment; filename="front.pdf"',
    });
    res.end(pdf);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
});

test.after.always(async () => {
  await engine?.close();
  await new Promise((resolve) => files?.close(resolve));
});

test('every mailpiece kind has a create with a file field per upload field, a cancel and a find', (t) => {
  for (const kind of ['postcards', 'self_mailers', 'letters', 'checks', 'snap_packs']) {
    const create = app.creates[`${kind}_create`];
    t.truthy(create, kind);
    const uploads = create.operation.inputFields.filter((f: AnyObj) => f.type === 'file');
    t.true(uploads.length > 0, kind);
    t.true(
      uploads.every((f: AnyObj) => f.key.endsWith('_upload') && !f.required),
      kind,
    );
    t.truthy(app.creates[`${kind}_cancel`], kind);
    t.truthy(app.searches[`${kind}_find`], kind);
  }
  const fields = app.creates.postcards_create.operation.inputFields as AnyObj[];
  t.deepEqual(
    fields.find((f) => f.key === 'use_type')?.choices.map((c: AnyObj) => c.value),
    ['marketing', 'operational'],
  );
  t.is(fields.find((f) => f.key === 'size')?.choices[0].label, '4x6');
});

test('a postcard from flat inline addresses, HTML and merge variables', async (t) => {
  const card = await perform('postcards_create', {
    ...flat('to', TO),
    ...flat('from', FROM),
    front: '<h1>Hi {{name}}</h1>',
    back: '<p>Back</p>',
    use_type: 'marketing',
    merge_variables: { name: 'Harry' },
    metadata: { source: 'zapier' },
    qr_code__redirect_url: 'https://example.com/offer',
    qr_code__width: '1.5',
    qr_code__top: '0.5',
    qr_code__left: '0.5',
  });
  t.regex(card.id, /^psc_/);
  t.deepEqual(card.merge_variables, { name: 'Harry' });
  t.is(card.to.name, 'HARRY ZHANG');
  t.deepEqual(card.metadata, { source: 'zapier' });
  const found = (await appTester(app.searches.postcards_find.operation.perform, {
    ...auth(),
    inputData: { id: card.id },
  })) as AnyObj[];
  t.is(found[0]?.id, card.id);
});

test('a letter from a template, to a saved address', async (t) => {
  const template = await createTemplate(api(), '<p>Dear {{name}},</p>');
  const recipient = await createAddress(api());
  const letter = await perform('letters_create', {
    to: recipient,
    ...flat('from', FROM),
    file: template,
    color: 'false',
    use_type: 'marketing',
    merge_variables: { name: 'Harry' },
    extra_service: 'certified',
  });
  t.regex(letter.id, /^ltr_/);
  t.is(letter.template_id, template);
  t.is(letter.to.id, recipient);
  t.is(letter.extra_service, 'certified');
});

test("a us_legal letter, with the connection's Service-Version (size needs 2024-01-01 or later)", async (t) => {
  const inputData = {
    ...flat('to', TO),
    ...flat('from', FROM),
    file: '<p>A legal-size letter</p>',
    color: 'false',
    use_type: 'operational',
    size: 'us_legal',
  };
  const refused = await t.throwsAsync(perform('letters_create', inputData));
  t.regex(String(refused?.message), /Service-Version 2024-01-01/);
  const versioned = { authData: { ...auth().authData, service_version: '2024-01-01' } };
  const letter = (await appTester(app.creates.letters_create.operation.perform, { ...versioned, inputData })) as AnyObj;
  t.regex(letter.id, /^ltr_/);
  t.is(letter.size, 'us_legal');
  const [found] = (await appTester(app.searches.letters_find.operation.perform, {
    ...versioned,
    inputData: { id: letter.id },
  })) as AnyObj[];
  t.is(found.size, 'us_legal', 'every request carries it, searches too');
});

test("find a postcard by its list's filters: size, send_date, status, mail_type, campaign_id, metadata", async (t) => {
  const fields = (app.searches.postcards_find.operation.inputFields as AnyObj[]).map((f) => f.key);
  for (const filter of ['status', 'size', 'send_date__gt', 'mail_type', 'campaign_id', 'metadata'])
    t.true(fields.includes(filter), filter);
  const batch = `find-${Date.now()}`;
  const future = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const [small] = await createPostcards(api(), 1, { size: '4x6', metadata: { batch } });
  const [large] = await createPostcards(api(), 1, { size: '6x9', metadata: { batch } });
  const [later] = await createPostcards(api(), 1, { size: '6x9', send_date: future, metadata: { batch } });
  const find = async (inputData: AnyObj) =>
    ((await appTester(app.searches.postcards_find.operation.perform, { ...auth(), inputData })) as AnyObj[])
      .map((p) => p.id)
      .sort();
  t.deepEqual(await find({ metadata: { batch }, size: ['6x9'] }), [large, later].sort());
  t.deepEqual(await find({ metadata: { batch }, size: ['6x9'], send_date__gt: tomorrow }), [later]);
  t.deepEqual(await find({ metadata: { batch }, status: 'processed' }), [small, large, later].sort());
  t.deepEqual(await find({ metadata: { batch }, mail_type: 'usps_standard' }), []);
  t.deepEqual(await find({ metadata: { batch }, campaign_id: 'cmp_nothing0000000' }), []);
  t.deepEqual(await find({}), [], 'nothing to search by finds nothing');
});

test('a check drawn on a verified bank account', async (t) => {
  const bank = await verifiedBankAccount(api());
  const check = await perform('checks_create', {
    ...flat('to', TO),
    ...flat('from', FROM),
    bank_account: bank,
    amount: '12.5',
    memo: 'rent',
    use_type: 'marketing',
  });
  t.regex(check.id, /^chk_/);
  t.is(check.amount, 12.5);
  t.is(check.bank_account.id, bank);
});

test('a file field is fetched (without the API key) and sent as multipart under its field name', async (t) => {
  const card = await perform('postcards_create', {
    ...flat('to', TO),
    ...flat('from', FROM),
    front_upload: `${filesUrl}/files/front.pdf`,
    back: '<p>Hello {{name}}</p>',
    use_type: 'marketing',
    merge_variables: { name: 'Harry' },
    metadata: { upload: 'file' },
  });
  t.regex(card.id, /^psc_/);
  const stored = await api()('GET', `/v1/postcards/${card.id}`);
  t.is(stored.status, 200);
  t.is(stored.body.to.name, 'HARRY ZHANG');
  t.deepEqual(stored.body.merge_variables, { name: 'Harry' });
  t.deepEqual(stored.body.metadata, { upload: 'file' });
  const hit = fetched.find((f) => f.url === '/files/front.pdf');
  t.truthy(hit);
  t.is(hit?.authorization, undefined, 'the engine key never goes to the file host');
});

test('a file that cannot be fetched fails the step naming the field', async (t) => {
  const error = await t.throwsAsync(
    perform('postcards_create', {
      ...flat('to', TO),
      front_upload: `${filesUrl}/files/missing.pdf`,
      back: '<p>Back</p>',
      use_type: 'marketing',
    }),
  );
  t.regex(String(error?.message), /front_upload.*404/);
});

test('cancel yields {id, deleted: true}', async (t) => {
  const card = await perform('postcards_create', {
    ...flat('to', TO),
    front: '<h1>Front</h1>',
    back: '<p>Back</p>',
    use_type: 'marketing',
  });
  t.deepEqual(await perform('postcards_cancel', { id: card.id }), { id: card.id, deleted: true });
});
