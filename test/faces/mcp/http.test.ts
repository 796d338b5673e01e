// The MCP server at /mcp over streamable HTTP, driven by the SDK's own client against a real engine
// that renders: tools listed from the catalog, an address verified, a postcard previewed (its picture
// received) and sent with its confirmation token, a changed payload refused and a retried send answered
// the piece it made; live mail refused without the account's permission and past the daily limit, also
// after the engine restarts on the same database; a sent piece cancelled within its window. On SQLite
// and PostgreSQL.
import http from 'node:http';
import test from 'ava';
import { freshDatabase, startEngine, type TestEngine } from '../../helpers/engine';
import { DATABASES } from '../../helpers/matrix';
import { TO, FROM } from '../../helpers/mail';
import { client as client_ } from '../../helpers/http';
import { call, errorText, json, overHttp, PATIENCE, PNG_MAGIC, type Preview } from './helpers';

const LIVE_READY = {
  payment_method_verified: true,
  email_verified: true,
  rate_limit_per_5s: 100000,
  agent_pieces_per_day: 1,
};
const card = (description: string) => ({
  to: TO,
  from: FROM,
  front: '<html><body><h1>Hello {{name}}</h1></body></html>',
  back: '<html><body><p>Back</p></body></html>',
  use_type: 'marketing',
  merge_variables: { name: 'Harry' },
  description,
});

for (const db of DATABASES) {
  test.serial(`${db}: tools, verification, preview, confirmed send, refusals, cancel`, async (t) => {
    const engine = await startEngine({ db, workers: true, settings: { rate_limit_per_5s: 100000 } });
    t.teardown(() => engine.close());
    const client = await overHttp(engine.url, engine.keys.test);
    t.teardown(() => client.close());

    const { tools } = await client.listTools(undefined, PATIENCE);
    const names = tools.map((tool) => tool.name);
    for (const name of ['verify_us_address', 'preview_postcard', 'send_postcard', 'cancel_mailpiece', 'list_templates'])
      t.true(names.includes(name), name);
    t.false(names.includes('delete_address'), 'deletes are off unless the operator turns them on');
    t.true(names.length >= 18 && names.length <= 26, `${names.length} tools`);
    t.true(tools.every((tool) => tool.name.length <= 64 && tool.inputSchema.type === 'object'));
    t.is(tools.find((tool) => tool.name === 'send_postcard')?.annotations?.destructiveHint, true);

    const verified = json(await call(client, 'verify_us_address', { primary_line: '210 King St', zip_code: '94107' }));
    t.is(verified.object, 'us_verification');

    const payload = card('spring');
    const answer = await call(client, 'preview_postcard', payload);
    const preview = json<Preview>(answer);
    t.is(preview.pieces, 1);
    t.regex(preview.confirmation_token, /^cfm_/);
    t.regex(preview.pdf_url, /^http/);
    const image = answer.content.find((c) => c.type === 'image');
    t.truthy(image, 'the thumbnail comes as MCP image content');
    t.deepEqual(Buffer.from(image!.data!, 'base64').subarray(0, 4), PNG_MAGIC);

    const changed = await call(client, 'send_postcard', {
      ...card('summer'),
      confirmation_token: preview.confirmation_token,
    });
    t.regex(errorText(changed), /confirmation_mismatch/);

    const sent = json(
      await call(client, 'send_postcard', { ...payload, confirmation_token: preview.confirmation_token }),
    );
    t.regex(String(sent.id), /^psc_/);
    t.true(Date.parse(String(sent.cancellable_until)) > Date.now(), 'the send date is after the cancellation window');

    const again = json(
      await call(client, 'send_postcard', { ...payload, confirmation_token: preview.confirmation_token }),
    );
    t.is(again.id, sent.id, 'a send retried with its token answers the piece it made, never a second');

    const cancelled = json(await call(client, 'cancel_mailpiece', { id: sent.id }));
    t.is(cancelled.deleted, true);
  });

  test.serial(
    `${db}: live mail needs the account's permission and stops at the daily limit, across a restart`,
    async (t) => {
      const database = await freshDatabase(db);
      t.teardown(() => database.drop());
      let engine: TestEngine = await startEngine({ db, database: database.url, workers: true, settings: LIVE_READY });
      t.teardown(() => engine.close());
      const keys = engine.keys;
      let client = await overHttp(engine.url, keys.live);

      const first = json<Preview>(await call(client, 'preview_postcard', card('one')));
      const unconfirmed = await call(client, 'send_postcard', card('one'));
      t.regex(errorText(unconfirmed), /confirmation_required/);
      const forbidden = await call(client, 'send_postcard', {
        ...card('one'),
        confirmation_token: first.confirmation_token,
      });
      t.regex(errorText(forbidden), /agent_live_mail_not_allowed \(403\)/);

      await engine.setSetting('agents_send_live', true);
      await new Promise((resolve) => setTimeout(resolve, 2100)); // the key cache keeps settings 2 s
      // a live address and template, named by id: the preview (a test piece) carries them inline
      const saved = json(await call(client, 'create_address', TO));
      const template = await client_(engine.url, keys.live)('POST', '/v1/templates', {
        json: { description: 'live front', html: '<html><body><h1>Live template</h1></body></html>' },
      });
      t.is(template.status, 200);
      const two = { ...card('two'), to: saved.id, front: template.body.id };
      const second = json<Preview>(await call(client, 'preview_postcard', two));
      const sent = json(await call(client, 'send_postcard', { ...two, confirmation_token: second.confirmation_token }));
      t.is(sent.mode, 'live');
      const third = json<Preview>(await call(client, 'preview_postcard', card('three')));
      const over = await call(client, 'send_postcard', {
        ...card('three'),
        confirmation_token: third.confirmation_token,
      });
      t.regex(errorText(over), /agent_limit_reached \(403\)/);

      await client.close();
      await engine.close();
      engine = await startEngine({ db, database: database.url, workers: true });
      client = await overHttp(engine.url, keys.live);
      t.teardown(() => client.close());
      const fourth = json<Preview>(await call(client, 'preview_postcard', card('four')));
      const stillOver = await call(client, 'send_postcard', {
        ...card('four'),
        confirmation_token: fourth.confirmation_token,
      });
      t.regex(errorText(stillOver), /agent_limit_reached/, 'the count lives in the database');

      const cancelled = json(await call(client, 'cancel_mailpiece', { id: sent.id }));
      t.is(cancelled.deleted, true, 'a live piece an agent sent can be cancelled within its window');
    },
  );
}

test.serial('/mcp refuses publishable keys, unknown keys and a Host that is not loopback', async (t) => {
  const engine = await startEngine({ db: 'sqlite' });
  t.teardown(() => engine.close());
  const post = (headers: Record<string, string>) =>
    fetch(`${engine.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  const publishable = await post({ authorization: `Bearer ${engine.keys.testPub}` });
  t.is(publishable.status, 403);
  t.is(((await publishable.json()) as { error: { code: string } }).error.code, 'publishable_key_not_allowed');
  t.is((await post({ authorization: 'Bearer test_0000' })).status, 401);
  // a Host fetch will not set: through node:http, as a browser after DNS rebinding would send it
  const rebound = await new Promise<number>((resolve, reject) => {
    const url = new URL(`${engine.url}/mcp`);
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: '/mcp',
        method: 'POST',
        headers: {
          host: 'attacker.example',
          authorization: `Bearer ${engine.keys.test}`,
          'content-type': 'application/json',
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.end('{}');
  });
  t.is(rebound, 403);
  const origin = await post({ authorization: `Bearer ${engine.keys.test}`, origin: 'http://attacker.example' });
  t.is(origin.status, 403);
});
