// The agent tools meet the API's text rules (both databases): an address an agent sends with a bidi
// override or an unpaired surrogate is refused with the field named, and nothing is stored.
import test from 'ava';
import { startEngine } from '../../helpers/engine';
import { DATABASES } from '../../helpers/matrix';
import { TO } from '../../helpers/mail';
import { client as httpClient } from '../../helpers/http';
import { call, errorText, overHttp } from './helpers';

for (const db of DATABASES) {
  test(`${db}: an agent's address holding a bidi control or an unpaired surrogate is refused naming the field`, async (t) => {
    const engine = await startEngine({ db });
    t.teardown(() => engine.close());
    const keys = await engine.createAccount();
    const client = await overHttp(engine.url, keys.test);
    t.teardown(() => client.close());
    t.regex(
      errorText(await call(client, 'create_address', { ...TO, name: 'Ann\u202e' })),
      /name must not contain bidi formatting characters \(U\+202E\)/,
    );
    t.regex(
      errorText(await call(client, 'create_address', { ...TO, address_line1: '210 King St\ud800' })),
      /address_line1 is not valid UTF-8 text/,
    );
    t.is((await httpClient(engine.url, keys.test)('GET', '/v1/addresses')).body.data.length, 0, 'nothing stored');
  });
}
