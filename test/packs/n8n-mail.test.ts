// Mailpieces through the built n8n node, run by n8n's WorkflowExecute against a real engine: inline
// and saved addresses, HTML, templates, merge variables, a check on a verified bank account, filtered
// lists paged with Return All, cancel, and artwork uploaded from an n8n binary property as multipart.
import test from 'ava';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { builtPacks } from './build-once';
import { loadPackage, runWorkflow, runWorkflowItems, shutdownN8n, type StepSpec } from './n8n-harness';
import {
  FROM,
  LETTER_IN,
  POSTCARD_4X6_IN,
  TO,
  createAddress,
  createPostcards,
  createTemplate,
  minimalPdf,
  verifiedBankAccount,
} from './mail-fixtures';

let engine: TestEngine;
let loader: Awaited<ReturnType<typeof loadPackage>>;
const creds = () => ({ apiKey: engine.keys.test, baseUrl: engine.url });
const api = () => client(engine.url, engine.keys.test);

const step = (name: string, resource: string, operation: string, parameters: IDataObject): StepSpec => ({
  name,
  parameters: { resource, operation, ...parameters } as StepSpec['parameters'],
});
const byId = (value: string) => ({ __rl: true, mode: 'id', value });
const inline = { toSource: 'inline', to: { values: TO }, fromSource: 'inline', from: { values: FROM } };

/** An item holding a PDF in its binary property `data`, as a Read File or HTTP Request node leaves it. */
const pdfItem = (text: string, size: [number, number] = POSTCARD_4X6_IN): INodeExecutionData => ({
  json: {},
  binary: {
    data: { data: minimalPdf(text, ...size).toString('base64'), mimeType: 'application/pdf', fileName: `${text}.pdf` },
  },
});

test.before(async () => {
  engine = await startEngine({ settings: { rate_limit_per_5s: 100000 } });
  const { n8nDir } = await builtPacks();
  loader = await loadPackage(n8nDir);
});

test.after.always(async () => {
  await engine?.close();
  shutdownN8n();
});

test('a postcard from inline addresses, HTML artwork and merge variables (JSON)', async (t) => {
  const r = await runWorkflow(loader, creds(), [
    step('Create', 'postcards', 'create', {
      ...inline,
      front: '<h1>Hi {{name}}</h1>',
      back: '<p>Back</p>',
      additionalFields: {
        use_type: 'marketing',
        merge_variables: '{"name": "Harry", "offer": {"percent": 10}}',
        size: '6x9',
        metadata: { pairs: [{ key: 'campaign', value: 'n8n' }] },
      },
    }),
  ]);
  t.falsy(r.error(), r.error()?.message);
  const [card] = r.json('Create');
  t.regex(String(card.id), /^psc_/);
  t.deepEqual(card.merge_variables, { name: 'Harry', offer: { percent: 10 } });
  t.is(card.size, '6x9');
  t.is((card.to as IDataObject).name, 'HARRY ZHANG');
  t.is((card.from as IDataObject).address_line1, '185 BERRY ST');
  t.deepEqual(card.metadata, { campaign: 'n8n' });
  t.is(card.use_type, 'marketing');
});

test('a letter from a template, to a saved address by id', async (t) => {
  const call = api();
  const template = await createTemplate(call, '<p>Dear {{name}},</p>');
  const recipient = await createAddress(call);
  const r = await runWorkflow(loader, creds(), [
    step('Create', 'letters', 'create', {
      toSource: 'id',
      to: byId(recipient),
      fromSource: 'inline',
      from: { values: FROM },
      file: template,
      color: false,
      additionalFields: { use_type: 'marketing', merge_variables: '{"name": "Harry"}', return_envelope: false },
    }),
  ]);
  t.falsy(r.error(), r.error()?.message);
  const [letter] = r.json('Create');
  t.regex(String(letter.id), /^ltr_/);
  t.is(letter.template_id, template);
  t.is((letter.to as IDataObject).id, recipient);
  t.is(letter.color, false);
});

test("a us_legal letter, with the credential's Service-Version (size needs 2024-01-01 or later)", async (t) => {
  const letter = (serviceVersion?: string) =>
    runWorkflow(loader, { ...creds(), ...(serviceVersion && { serviceVersion }) }, [
      step('Create', 'letters', 'create', {
        ...inline,
        file: '<p>A legal-size letter</p>',
        color: false,
        additionalFields: { use_type: 'operational', size: 'us_legal' },
      }),
    ]);
  const refused = await letter();
  t.regex(String(refused.error()?.message), /Service-Version 2024-01-01/);
  const r = await letter('2024-01-01');
  t.falsy(r.error(), r.error()?.message);
  const [created] = r.json('Create');
  t.regex(String(created.id), /^ltr_/);
  t.is(created.size, 'us_legal');
  const stored = await api()('GET', `/v1/letters/${String(created.id)}`, {
    headers: { 'Service-Version': '2024-01-01' },
  });
  t.is(stored.body.size, 'us_legal');
});

test('a check drawn on a verified bank account', async (t) => {
  const bank = await verifiedBankAccount(api());
  const r = await runWorkflow(loader, creds(), [
    step('Create', 'checks', 'create', {
      ...inline,
      bank_account: byId(bank),
      amount: 12.5,
      additionalFields: { use_type: 'marketing', memo: 'rent' },
    }),
  ]);
  t.falsy(r.error(), r.error()?.message);
  const [check] = r.json('Create');
  t.regex(String(check.id), /^chk_/);
  t.is(check.amount, 12.5);
  t.is(check.memo, 'rent');
  t.is((check.bank_account as IDataObject).id, bank);
});

test('a filtered postcard list (size, scheduled, metadata, sort) with Return All pages past 100', async (t) => {
  const call = api();
  const batch = `list-${Date.now()}`;
  const future = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  const matching = await createPostcards(call, 103, { size: '4x6', metadata: { batch } });
  await createPostcards(call, 2, { size: '6x9', metadata: { batch } });
  const scheduled = await createPostcards(call, 2, { size: '4x6', send_date: future, metadata: { batch } });
  const metadata = { pairs: [{ key: 'batch', value: batch }] };

  const all = await runWorkflow(loader, creds(), [
    step('List', 'postcards', 'list', {
      returnAll: true,
      filters: { size: ['4x6'], scheduled: false, metadata, sort_by: { date_created: 'asc' } },
    }),
  ]);
  t.falsy(all.error(), all.error()?.message);
  const items = all.json('List');
  t.deepEqual(items.map((i) => String(i.id)).sort(), [...matching].sort());
  t.is(items.length, matching.length);
  t.true(items.every((i) => i.size === '4x6' && i.object === 'postcard'));
  const created = items.map((i) => String(i.date_created));
  t.deepEqual(created, [...created].sort());

  const later = await runWorkflow(loader, creds(), [
    step('List', 'postcards', 'list', {
      returnAll: false,
      limit: 10,
      filters: { scheduled: true, send_date: { gt: new Date().toISOString().slice(0, 10) }, metadata },
    }),
  ]);
  t.falsy(later.error(), later.error()?.message);
  t.deepEqual(
    later
      .json('List')
      .map((i) => String(i.id))
      .sort(),
    [...scheduled].sort(),
  );
});

test('cancel yields {id, deleted: true}; the piece is gone', async (t) => {
  const [id] = await createPostcards(api(), 1, {});
  const r = await runWorkflow(loader, creds(), [step('Cancel', 'postcards', 'cancel', { id: byId(id) })]);
  t.falsy(r.error(), r.error()?.message);
  t.deepEqual(r.json('Cancel'), [{ id, deleted: true }]);
  t.is((await api()('GET', `/v1/postcards/${id}`)).status, 404);
});

test('a postcard front from a binary property (a real PDF) goes as multipart, other fields in bracket form', async (t) => {
  const r = await runWorkflowItems(
    loader,
    creds(),
    [
      step('Create', 'postcards', 'create', {
        ...inline,
        frontSource: 'binary',
        frontBinaryProperty: 'data',
        back: '<p>Hello {{name}}</p>',
        additionalFields: {
          use_type: 'marketing',
          merge_variables: '{"name": "Harry"}',
          metadata: { pairs: [{ key: 'upload', value: 'binary' }] },
          qr_code: { redirect_url: 'https://example.com/offer', width: 1.5, top: 0.5, left: 0.5 },
        },
      }),
    ],
    [pdfItem('front')],
  );
  t.falsy(r.error(), r.error()?.message);
  const [card] = r.json('Create');
  t.regex(String(card.id), /^psc_/);
  const stored = await api()('GET', `/v1/postcards/${String(card.id)}`);
  t.is(stored.status, 200);
  t.is(stored.body.to.name, 'HARRY ZHANG');
  t.deepEqual(stored.body.merge_variables, { name: 'Harry' });
  t.deepEqual(stored.body.metadata, { upload: 'binary' });
  t.is(stored.body.front_template_id, null);
});

test('a check attachment from a binary property in Additional Fields', async (t) => {
  const bank = await verifiedBankAccount(api());
  const r = await runWorkflowItems(
    loader,
    creds(),
    [
      step('Create', 'checks', 'create', {
        ...inline,
        bank_account: byId(bank),
        amount: 40,
        additionalFields: { use_type: 'marketing', attachmentBinaryProperty: 'data' },
      }),
    ],
    [pdfItem('invoice', LETTER_IN)],
  );
  t.falsy(r.error(), r.error()?.message);
  const [check] = r.json('Create');
  t.regex(String(check.id), /^chk_/);
  t.is((await api()('GET', `/v1/checks/${String(check.id)}`)).status, 200);
});

test('a binary property the item does not have fails the step with a clear message', async (t) => {
  const r = await runWorkflow(loader, creds(), [
    step('Create', 'postcards', 'create', {
      ...inline,
      frontSource: 'binary',
      frontBinaryProperty: 'missing',
      back: '<p>Back</p>',
      additionalFields: { use_type: 'marketing' },
    }),
  ]);
  t.truthy(r.error());
  t.regex(String(r.error()?.message), /missing/);
});

test('merge variables that are not JSON reach the engine, which says what it expected', async (t) => {
  const r = await runWorkflow(loader, creds(), [
    step('Create', 'postcards', 'create', {
      ...inline,
      front: '<h1>Hi {{name}}</h1>',
      back: '<p>Back</p>',
      additionalFields: { use_type: 'marketing', merge_variables: 'name=Harry' },
    }),
  ]);
  t.truthy(r.error());
  t.regex(String(r.error()?.message), /merge_variables/);
});
