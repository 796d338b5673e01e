// `printpost mcp` over stdio, as a desktop client starts it: the SDK's StdioClientTransport spawns the
// command, which calls a real engine's API with the key it was given. The tools listed, an address
// verified, a postcard previewed (its picture received) and sent with its token, a retry with the token
// answering the same piece; a publishable key is refused before the server starts.
import test from 'ava';
import { startEngine } from '../../helpers/engine';
import { TO, FROM } from '../../helpers/mail';
import { call, json, overStdio, PATIENCE, PNG_MAGIC, type Preview } from './helpers';

test.serial('printpost mcp over stdio: list, verify, preview with its picture, confirmed send', async (t) => {
  const engine = await startEngine({ db: 'sqlite', workers: true, settings: { rate_limit_per_5s: 100000 } });
  t.teardown(() => engine.close());
  const client = await overStdio(engine.url, engine.keys.test, { MCP_TOOLS: '+delete_address,-send_check' });
  t.teardown(() => client.close());

  const names = (await client.listTools(undefined, PATIENCE)).tools.map((tool) => tool.name);
  t.true(names.includes('delete_address'), 'MCP_TOOLS turns a tool on');
  t.false(names.includes('send_check'), 'and off');

  const verified = json(await call(client, 'verify_us_address', { primary_line: '210 King St', zip_code: '94107' }));
  t.is(verified.object, 'us_verification');

  const payload = {
    to: TO,
    from: FROM,
    front: '<html><body><h1>Front</h1></body></html>',
    back: '<html><body><p>Back</p></body></html>',
    use_type: 'operational',
  };
  const answer = await call(client, 'preview_postcard', payload);
  const preview = json<Preview>(answer);
  const image = answer.content.find((c) => c.type === 'image');
  t.is(image?.mimeType, 'image/png');
  t.deepEqual(Buffer.from(image!.data!, 'base64').subarray(0, 4), PNG_MAGIC);
  const sent = json(
    await call(client, 'send_postcard', { ...payload, confirmation_token: preview.confirmation_token }),
  );
  t.regex(String(sent.id), /^psc_/);
  const reused = json(
    await call(client, 'send_postcard', { ...payload, confirmation_token: preview.confirmation_token }),
  );
  t.is(reused.id, sent.id, 'the token sends once: a retry answers the same piece');
});

test('printpost mcp refuses a publishable key', async (t) => {
  const engine = await startEngine({ db: 'sqlite' });
  t.teardown(() => engine.close());
  await t.throwsAsync(overStdio(engine.url, engine.keys.testPub));
});
