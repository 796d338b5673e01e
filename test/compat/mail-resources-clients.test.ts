// The vendor's official clients drive templates, template versions, bank accounts and billing groups
// with nothing changed but the base URL and the key: `lob` 7.x (form bodies) and
// `@lob/lob-typescript-sdk` 1.4.x (JSON bodies, model classes that check ids with regexes).
import {
  BankAccountsApi,
  BillingGroupsApi,
  Configuration,
  TemplatesApi,
  TemplateVersionsApi,
  type BankAccountWritable,
  type BankAccountVerify,
  type BillingGroupEditable,
  type TemplateUpdate,
  type TemplateVersionWritable,
  type TemplateWritable,
} from '@lob/lob-typescript-sdk';
import { databaseSuite } from '../helpers/suite';

type Obj = Record<string, any>;
interface LobNode {
  bankAccounts: {
    create(p: Obj): Promise<Obj>;
    verify(id: string, p: Obj): Promise<Obj>;
    retrieve(id: string): Promise<Obj>;
    list(q?: Obj): Promise<Obj>;
    delete(id: string): Promise<Obj>;
  };
  templates: {
    create(p: Obj): Promise<Obj>;
    retrieve(id: string): Promise<Obj>;
    list(q?: Obj): Promise<Obj>;
    delete(id: string): Promise<Obj>;
  };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Lob = require('lob') as (key: string, options: { host: string }) => LobNode;

const { test } = databaseSuite();

const ACCOUNT = {
  routing_number: '322271627',
  account_number: '123456789',
  account_type: 'company',
  signatory: 'Jane Doe',
};
const HTML = '<html><body>Hello {{name}}</body></html>';

test('lob 7 (form bodies): bank account create, verify, retrieve, list and delete; template create, retrieve, list and delete', async (t, {
  engine,
}) => {
  const keys = await engine.createAccount();
  const lob = Lob(keys.test, { host: `${engine.url}/v1/` });
  // lob 7 sends nested objects as '[object Object]': its users flatten metadata keys themselves
  const account = await lob.bankAccounts.create({ ...ACCOUNT, 'metadata[team]': 'ops' });
  t.deepEqual(account.metadata, { team: 'ops' });
  t.regex(account.id, /^bank_/);
  const verified = await lob.bankAccounts.verify(account.id, { amounts: [25, 63] });
  t.true(verified.verified);
  t.is((await lob.bankAccounts.retrieve(account.id)).id, account.id);
  t.deepEqual(
    (await lob.bankAccounts.list({ limit: 2 })).data.map((a: Obj) => a.id),
    [account.id],
  );
  t.deepEqual(await lob.bankAccounts.delete(account.id), { id: account.id, deleted: true });
  const template = await lob.templates.create({ description: 'Spring', html: HTML, engine: 'handlebars' });
  t.is(template.published_version.html, HTML);
  t.is((await lob.templates.retrieve(template.id)).versions.length, 1);
  t.is((await lob.templates.list({ limit: 1 })).data[0].id, template.id);
  t.deepEqual(await lob.templates.delete(template.id), { id: template.id, deleted: true });
  const bad = await t.throwsAsync(lob.bankAccounts.create({ ...ACCOUNT, routing_number: '123456789' }));
  t.is((bad as Error & { status_code?: number }).status_code, 422);
});

test('TypeScript SDK (JSON bodies, model classes): templates with versions, bank accounts, billing groups', async (t, {
  engine,
}) => {
  const keys = await engine.createAccount();
  const config = new Configuration({ basePath: `${engine.url}/v1`, username: keys.test });
  const templates = new TemplatesApi(config);
  const versions = new TemplateVersionsApi(config);
  const template = await templates.create({ description: 'Spring', html: HTML } as unknown as TemplateWritable);
  t.regex(template.id, /^tmpl_/);
  const v2 = await versions.create(template.id, {
    description: 'v2',
    html: '<p>{{offer}}</p>',
  } as unknown as TemplateVersionWritable);
  t.regex(v2.id!, /^vrsn_/);
  t.is((await versions.get(template.id, v2.id!)).description, 'v2');
  t.is((await versions.list(template.id)).data?.length, 2);
  const published = await templates.update(template.id, { published_version: v2.id } as unknown as TemplateUpdate);
  t.is(published.published_version?.id, v2.id);
  const refused = (await t.throwsAsync(versions.delete(template.id, v2.id!))) as Error;
  t.regex(refused.message, /published version cannot be deleted/);
  t.like(await versions.delete(template.id, template.versions![0].id!), { deleted: true });

  const banks = new BankAccountsApi(config);
  const bank = await banks.create(ACCOUNT as unknown as BankAccountWritable);
  t.true((await banks.verify(bank.id, { amounts: [1, 2] } as unknown as BankAccountVerify)).verified);
  t.like(await banks.delete(bank.id), { id: bank.id, deleted: true });

  const groups = new BillingGroupsApi(config);
  const group = await groups.create({ name: 'Marketing' } as unknown as BillingGroupEditable);
  t.regex(group.id!, /^bg_/);
  t.is((await groups.update(group.id!, { name: 'Growth' } as unknown as BillingGroupEditable)).name, 'Growth');
  t.is((await groups.get(group.id!)).name, 'Growth');
});
