// A confirmation token is spent only by the send it confirms, on SQLite and PostgreSQL, through the
// MCP SDK's client: a live send refused (the account does not let agents send live mail) leaves its
// token unspent, so once the operator allows it the same token sends and a piece is made; sending it
// again answers that same piece, never a second one.
import test from 'ava';
import { startEngine } from '../../helpers/engine';
import { DATABASES } from '../../helpers/matrix';
import { TO, FROM } from '../../helpers/mail';
import { client as httpClient } from '../../helpers/http';
import { call, errorText, json, overHttp, type Preview } from './helpers';

const card = {
  to: TO,
  from: FROM,
  front: '<html><body><h1>Hello</h1></body></html>',
  back: '<html><body><p>Back</p></body></html>',
  use_type: 'marketing',
};

for (const db of DATABASES)
  test.serial(`${db}: a refused send leaves its confirmation token for the same send later`, async (t) => {
    const engine = await startEngine({
      db,
      workers: true,
      env: { KEY_CACHE_MS: '0' },
      settings: { payment_method_verified: true, email_verified: true, rate_limit_per_5s: 100000 },
    });
    t.teardown(() => engine.close());
    const client = await overHttp(engine.url, engine.keys.live);
    t.teardown(() => client.close());
    const livePostcards = async () =>
      ((await httpClient(engine.url, engine.keys.live)('GET', '/v1/postcards?limit=100')).body.data as unknown[])
        .length;

    const preview = json<Preview>(await call(client, 'preview_postcard', card));
    const confirmed = { ...card, confirmation_token: preview.confirmation_token };
    t.regex(errorText(await call(client, 'send_postcard', confirmed)), /agent_live_mail_not_allowed \(403\)/);
    t.is(await livePostcards(), 0);

    await engine.setSetting('agents_send_live', true);
    const sent = json(await call(client, 'send_postcard', confirmed));
    t.regex(String(sent.id), /^psc_/, 'the token was not spent by the refused send');
    t.is(sent.mode, 'live');

    const again = await call(client, 'send_postcard', confirmed);
    if (again.isError) t.regex(errorText(again), /confirmation_used/);
    else t.is(json(again).id, sent.id, 'a second send with the token answers the same piece');
    t.is(await livePostcards(), 1, 'never a second piece');
  });
