// A check's message and memo take merge variables like the artwork: merged as plain text (nothing
// HTML-escaped) when the check is drawn, held to the account's strictness and refused when they would
// not parse, at create.
import test from 'ava';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { check, verifiedBankAccount } from '../helpers/mail';
import { readPdf } from '../helpers/pdf-read';
import { create, download, settled } from './helpers';

let engine: TestEngine;

test.before(async () => {
  engine = await startEngine({ workers: true });
});
test.after.always(() => engine?.close());

test('message and memo are printed with their merge variables filled, unescaped', async (t) => {
  const call = client(engine.url, engine.keys.test);
  const bank = await verifiedBankAccount(call);
  const message = 'Thank you, {{name}} & family, for {{#each items}}{{this}} {{/each}}';
  const body = check(bank, {
    message,
    memo: 'Invoice {{invoice}}',
    merge_variables: { name: "Harry O'Neil", invoice: 42, items: ['rent', 'fees'] },
  });
  const created = await create(call, '/v1/checks', body);
  t.is(created.message, message, 'the piece keeps the message as written');
  const piece = await settled(call, '/v1/checks', created.id, 60_000, true);
  t.is(piece.status, 'rendered', JSON.stringify(piece.failure_reason));
  const pdf = await readPdf((await download(piece.url!)).bytes);
  const text = pdf.pages[0].text.map((x) => x.str).join(' ');
  t.true(text.includes("Thank you, Harry O'Neil & family, for rent fees"), text);
  t.true(text.includes('Invoice 42'), text);
  t.false(text.includes('{{'), 'no merge tag printed as typed');
});

test('a strict account refuses a message variable it was not given; a broken tag is refused for any account', async (t) => {
  const name = `strict-${Math.random().toString(36).slice(2)}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('merge_variable_strictness', 'strict', name);
  const call = client(engine.url, keys.test);
  const bank = await verifiedBankAccount(call);
  const missing = await call<{ error: { code: string; message: string } }>('POST', '/v1/checks', {
    json: check(bank, { message: 'Dear {{name}}', merge_variables: { other: 1 } }),
  });
  t.is(missing.status, 422);
  t.is(missing.body.error.code, 'merge_variable_required');
  t.regex(missing.body.error.message, /merge_variables\.name is required by message/);
  const given = await call('POST', '/v1/checks', {
    json: check(bank, { message: 'Dear {{name}}', merge_variables: { name: 'Harry' } }),
  });
  t.is(given.status, 200, JSON.stringify(given.body));
  const broken = await call<{ error: { code: string } }>('POST', '/v1/checks', {
    json: check(bank, { memo: 'Inv {{#if x}}' }),
  });
  t.is(broken.status, 422);
  t.is(broken.body.error.code, 'invalid_template_html');
});
