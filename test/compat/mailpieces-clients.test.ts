// The vendor's official clients drive every mailpiece kind they know with nothing changed but the base
// URL and the key: `lob` 7.x (form bodies, merge_variables as JSON text, files as multipart) and
// `@lob/lob-typescript-sdk` 1.4.x (JSON bodies, JSON-in-query lists; its model classes refuse our asset
// links, see below). Neither knows snap packs; those are covered over HTTP.
import {
  ChecksApi,
  ChecksApiFp,
  Configuration,
  LettersApi,
  LettersApiFp,
  PostcardsApi,
  PostcardsApiFp,
  SelfMailersApi,
  SelfMailersApiFp,
  type CheckEditable,
  type LetterEditable,
  type PostcardEditable,
  type SelfMailerEditable,
} from '@lob/lob-typescript-sdk';
import { databaseSuite } from '../helpers/suite';
import { client } from '../helpers/http';
import { FROM, TO, minimalPdf, verifiedBankAccount } from '../helpers/mail';

type Obj = Record<string, any>;
interface Kind {
  create(p: Obj): Promise<Obj>;
  retrieve(id: string): Promise<Obj>;
  list(q?: Obj): Promise<Obj>;
  delete(id: string): Promise<Obj>;
}
interface LobNode {
  postcards: Kind;
  letters: Kind;
  checks: Kind;
  selfMailers: Kind;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Lob = require('lob') as (key: string, options: { host: string }) => LobNode;

const { test } = databaseSuite();

const HTML = '<html><body>Hello {{name}}</body></html>';
/** a 4x6 postcard side, as the artwork checks ask */
const PDF = minimalPdf('Back');

test('lob 7: postcards (HTML and an uploaded PDF), letters, checks and self mailers: create, retrieve, list, cancel', async (t, {
  engine,
}) => {
  const keys = await engine.createAccount();
  const lob = Lob(keys.test, { host: `${engine.url}/v1/` });
  const postcard = await lob.postcards.create({
    to: TO,
    from: FROM,
    front: HTML,
    back: PDF,
    use_type: 'marketing',
    merge_variables: { name: 'Harry' },
  });
  t.regex(postcard.id, /^psc_/);
  t.deepEqual(postcard.merge_variables, { name: 'Harry' }, 'JSON text in a form field is read as the object');
  t.is(postcard.to.name, 'HARRY ZHANG');
  t.is((await lob.postcards.retrieve(postcard.id)).id, postcard.id);
  t.is((await lob.postcards.list({ limit: 1 })).data[0].id, postcard.id);
  t.deepEqual(await lob.postcards.delete(postcard.id), { id: postcard.id, deleted: true });

  const letter = await lob.letters.create({ to: TO, from: FROM, file: HTML, color: true, use_type: 'operational' });
  t.is(letter.color, true);
  t.deepEqual(await lob.letters.delete(letter.id), { id: letter.id, deleted: true });

  const bank = await verifiedBankAccount(client(engine.url, keys.test));
  // lob 7 flattens inline addresses for postcards, letters and self mailers but not for checks: its
  // users name saved addresses by id there
  const check = await lob.checks.create({
    to: postcard.to.id,
    from: postcard.from.id,
    bank_account: bank,
    amount: 100.5,
    memo: 'rent',
    use_type: 'operational',
  });
  t.like(check, { amount: 100.5, memo: 'rent', check_number: 10000 });
  t.is((await lob.checks.retrieve(check.id)).bank_account.id, bank);

  const mailer = await lob.selfMailers.create({
    to: TO,
    from: FROM,
    inside: HTML,
    outside: HTML,
    use_type: 'marketing',
  });
  t.regex(mailer.id, /^sfm_/);
  t.is((await lob.selfMailers.list({ limit: 1 })).data[0].id, mailer.id);
  t.deepEqual(await lob.selfMailers.delete(mailer.id), { id: mailer.id, deleted: true });

  const refused = await t.throwsAsync(
    lob.postcards.create({ to: TO, front: HTML, back: HTML, use_type: 'marketing', size: '5x7' }),
  );
  t.is((refused as Error & { status_code?: number }).status_code, 422);
});

// The SDK's model classes (Postcard, Letter, Check, SelfMailer) refuse an asset link whose host is not
// the vendor's (a regex in each `set url`), and every piece carries its link from create on: create and
// get through the classes throw, nothing the engine can change. Lists and cancels build no piece class
// and work as they are; the SDK's own `*ApiFp` functions hand back the raw response, which is the
// workaround the README gives.
test('TypeScript SDK: the model classes refuse our links; the raw *ApiFp calls, lists and cancels work', async (t, {
  engine,
}) => {
  const keys = await engine.createAccount();
  const config = new Configuration({ basePath: `${engine.url}/v1`, username: keys.test });
  const body = { to: TO, from: FROM, front: HTML, back: HTML, use_type: 'marketing', merge_variables: { name: 'H' } };
  const postcards = new PostcardsApi(config);
  await t.throwsAsync(postcards.create(body as unknown as PostcardEditable), { message: 'Invalid url provided' });

  const raw = PostcardsApiFp(config);
  const { data: card } = await (await raw.postcardCreate(body as unknown as PostcardEditable, 'sdk-key-1'))();
  t.regex(card.id, /^psc_/);
  t.regex(card.url, new RegExp(`^${engine.url}/assets/postcards/${card.id}\\.pdf\\?`));
  const { data: again } = await (
    await raw.postcardCreate({ ...body, front: '<p>other</p>' } as unknown as PostcardEditable, 'sdk-key-1')
  )();
  t.is(again.id, card.id, 'the SDK idempotency key returns the first piece');
  t.is((await (await raw.postcardRetrieve(card.id))()).data.id, card.id);
  const listed = await postcards.list(10, undefined, undefined, ['total_count'], undefined, undefined, [
    '4x6' as never,
  ]);
  t.true((listed.data ?? []).some((p) => p.id === card.id));
  t.true((await postcards.cancel(card.id)).deleted);

  const { data: letter } = await (
    await LettersApiFp(config).letterCreate({
      to: TO,
      from: FROM,
      file: HTML,
      color: false,
      use_type: 'operational',
      merge_variables: { name: 'H' },
    } as unknown as LetterEditable)
  )();
  t.regex(letter.id ?? '', /^ltr_/);
  t.true((await new LettersApi(config).cancel(letter.id!)).deleted);

  const bank = await verifiedBankAccount(client(engine.url, keys.test));
  const { data: check } = await (
    await ChecksApiFp(config).checkCreate({
      to: TO,
      from: FROM,
      bank_account: bank,
      amount: 12.34,
      use_type: 'operational',
    } as unknown as CheckEditable)
  )();
  t.is(check.amount, 12.34);
  t.is(check.check_number, 10000);
  t.true((await new ChecksApi(config).list(5)).data!.some((c) => c.id === check.id));

  const { data: mailer } = await (
    await SelfMailersApiFp(config).selfMailerCreate({
      to: TO,
      from: FROM,
      inside: HTML,
      outside: HTML,
      use_type: 'marketing',
    } as unknown as SelfMailerEditable)
  )();
  t.regex(mailer.id, /^sfm_/);
  t.true((await new SelfMailersApi(config).delete(mailer.id)).deleted);
});
