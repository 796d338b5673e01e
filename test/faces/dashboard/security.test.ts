// The dashboard's defences over plain HTTP, on SQLite and PostgreSQL: nothing answers without a session;
// forged, ended and expired cookies, missing or wrong CSRF tokens, another account's ids and
// publishable keys are refused; sign-in attempts are rate-limited; every page carries a strict CSP and
// holds no inline script, no inline style and no event-handler attribute.
import test from 'ava';
import { databaseSuite } from '../../helpers/suite';
import { DATABASES } from '../../helpers/matrix';
import { startEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { minimalPdf, postcard, TO } from '../../helpers/mail';
import { cookieFrom, csrfOf, postSignIn, request, signInHttp } from './harness';

const suite = databaseSuite();

const PAGES = [
  '/dashboard',
  '/dashboard/mail',
  '/dashboard/addresses',
  '/dashboard/keys',
  '/dashboard/settings',
  '/dashboard/health',
  '/dashboard/templates',
  '/dashboard/campaigns',
  '/dashboard/campaigns/new',
  '/dashboard/webhooks',
];
const ELSEWHERE = [
  '/dashboard/assets/dashboard.css',
  '/dashboard/assets/dashboard.js',
  '/dashboard/mail/psc_x/files/pdf',
];
const POSTS = [
  '/dashboard/sign-out',
  '/dashboard/mode',
  '/dashboard/keys',
  '/dashboard/settings',
  '/dashboard/mail/psc_x/cancel',
  '/dashboard/campaigns/new',
  '/dashboard/campaigns/cmp_x/audience/file',
];

suite.test(
  'nothing answers without a session: pages send to sign-in, assets and forms are refused',
  async (t, { engine }) => {
    for (const path of PAGES) {
      const reply = await request(engine.url, 'GET', path);
      t.is(reply.status, 303, path);
      t.is(reply.location, '/dashboard/sign-in', path);
      t.notRegex(reply.text, /Overview|psc_/, path);
    }
    for (const path of ELSEWHERE) t.is((await request(engine.url, 'GET', path)).status, 401, path);
    for (const path of POSTS) t.is((await request(engine.url, 'POST', path, { form: { a: 'b' } })).status, 401, path);
  },
);

suite.test('a forged or altered cookie finds no session', async (t, { engine }) => {
  const session = await signInHttp(engine.url, engine.keys.test);
  t.is((await session.get('/dashboard')).status, 200);
  const value = session.cookie.split('=')[1];
  const [id, mac] = value.split('.');
  const forged = [
    'printpost_dashboard=abc',
    `printpost_dashboard=${id}`,
    `printpost_dashboard=${id}.${mac.slice(0, -2)}AA`,
    `printpost_dashboard=${id.slice(0, -2)}AA.${mac}`,
    // not even percent-encoding: no session, not an error page
    'printpost_dashboard=%E0%A4%A',
  ];
  for (const cookie of forged) t.is((await request(engine.url, 'GET', '/dashboard', { cookie })).status, 303, cookie);
});

suite.test('a page path that is not valid percent-encoding is a 404, not an error', async (t, { engine }) => {
  const session = await signInHttp(engine.url, engine.keys.test);
  t.is((await session.get('/dashboard/mail/%E0%A4%A')).status, 404);
});

suite.test('the session cookie is HttpOnly, SameSite=Strict and scoped to /dashboard', async (t, { engine }) => {
  const { reply } = await postSignIn(engine.url, engine.keys.test);
  const line = reply.headers.getSetCookie().find((l) => l.startsWith('printpost_dashboard='));
  t.truthy(line);
  t.regex(line!, /HttpOnly/);
  t.regex(line!, /SameSite=Strict/);
  t.regex(line!, /Path=\/dashboard/);
});

suite.test('sign-out ends the session on the server: the old cookie no longer works', async (t, { engine }) => {
  const session = await signInHttp(engine.url, engine.keys.test);
  const out = await session.post('/dashboard/sign-out', {});
  t.is(out.status, 303);
  t.is(out.location, '/dashboard/sign-in');
  t.is((await session.get('/dashboard')).status, 303);
});

suite.test('a missing or wrong CSRF token is refused and changes nothing', async (t, { engine }) => {
  const session = await signInHttp(engine.url, engine.keys.test);
  const cookie = session.cookie;
  const save = { name: 'cancellation_window_minutes', value: '7' };
  const missing = await request(engine.url, 'POST', '/dashboard/settings', { cookie, form: save });
  t.is(missing.status, 403);
  const wrong = await request(engine.url, 'POST', '/dashboard/settings', {
    cookie,
    form: { ...save, _csrf: 'x'.repeat(32) },
  });
  t.is(wrong.status, 403);
  t.is((await request(engine.url, 'POST', '/dashboard/sign-out', { cookie, form: {} })).status, 403);
  t.is((await session.get('/dashboard')).status, 200, 'sign-out without a token did not end the session');
  t.notRegex((await session.get('/dashboard/settings')).text, /value="7"/);
  // another session's token is not this one's
  const other = await signInHttp(engine.url, engine.keys.test);
  const theirs = csrfOf((await other.get('/dashboard')).text);
  t.is(
    (await request(engine.url, 'POST', '/dashboard/settings', { cookie, form: { ...save, _csrf: theirs } })).status,
    403,
  );
  // with its own token it goes through
  t.is((await session.post('/dashboard/settings', save)).status, 303);
  t.regex((await session.get('/dashboard/settings')).text, /name="value" value="7"/);
  await session.post('/dashboard/settings', { name: 'cancellation_window_minutes', value: '5' });
});

suite.test('the sign-in form needs its own token and cookie', async (t, { engine }) => {
  const form = await request(engine.url, 'GET', '/dashboard/sign-in');
  const token = csrfOf(form.text);
  const noCookie = await request(engine.url, 'POST', '/dashboard/sign-in', {
    form: { _csrf: token, key: engine.keys.test },
  });
  t.is(noCookie.status, 403);
  t.is(cookieFrom(noCookie.headers, 'printpost_dashboard'), undefined);
  const pre = cookieFrom(form.headers, 'printpost_sign_in');
  const noToken = await request(engine.url, 'POST', '/dashboard/sign-in', {
    cookie: `printpost_sign_in=${pre}`,
    form: { key: engine.keys.test },
  });
  t.is(noToken.status, 403);
});

suite.test(
  'a publishable key, an unknown key and a revoked key cannot sign in; revoking ends its sessions',
  async (t, { engine }) => {
    const publishable = await postSignIn(engine.url, engine.keys.testPub);
    t.is(publishable.reply.status, 403);
    t.regex(publishable.reply.text, /publishable key cannot sign in/);
    t.is(publishable.cookie, undefined);
    const unknown = await postSignIn(engine.url, 'test_0123456789abcdef0123456789abcdef');
    t.is(unknown.reply.status, 401);
    t.is(unknown.cookie, undefined);
    // a key made and revoked on the keys page
    const session = await signInHttp(engine.url, engine.keys.test);
    const made = await session.post('/dashboard/keys', { mode: 'test', kind: 'secret' }, '/dashboard/keys');
    const key = /id="new-key">([^<]+)</.exec(made.text)?.[1];
    t.truthy(key);
    t.is((await client(engine.url, key)('GET', '/v1/addresses')).status, 200);
    const opened = await signInHttp(engine.url, key!);
    t.is((await opened.get('/dashboard')).status, 200);
    const keysPage = await session.get('/dashboard/keys');
    const hint = `${key!.slice(0, 5)}…${key!.slice(-4)}`;
    const row = keysPage.text.split('<tr>').find((r) => r.includes(hint));
    const action = /action="([^"]+\/revoke)"/.exec(row ?? '')?.[1];
    t.truthy(action, 'the new key has a revoke button');
    t.is((await session.post(action!, {}, '/dashboard/keys')).status, 303);
    t.is((await client(engine.url, key)('GET', '/v1/addresses')).status, 401);
    t.is((await postSignIn(engine.url, key!)).reply.status, 401);
    t.is((await opened.get('/dashboard')).status, 303, 'the session that key opened ended with it');
    t.is((await session.get('/dashboard')).status, 200, 'the session of another key goes on');
  },
);

suite.test(
  "another account's pieces and keys are not found, and cannot be cancelled or revoked",
  async (t, { engine }) => {
    const other = await engine.createAccount();
    const theirs = await client(engine.url, other.test)('POST', '/v1/postcards', {
      json: postcard({ description: 'theirs' }),
    });
    t.is(theirs.status, 200);
    const id: string = theirs.body.id;
    const session = await signInHttp(engine.url, engine.keys.test);
    t.is((await session.get(`/dashboard/mail/${id}`)).status, 404);
    t.is((await session.get(`/dashboard/mail/${id}/files/pdf`)).status, 404);
    t.is((await session.post(`/dashboard/mail/${id}/cancel`, {})).status, 404);
    t.is((await client(engine.url, other.test)('GET', `/v1/postcards/${id}`)).status, 200, 'still there');
    t.notRegex((await session.get('/dashboard/mail')).text, new RegExp(id));
    // their key ids: sign in as them to read one, then try to revoke it from our session
    const them = await signInHttp(engine.url, other.test);
    const keyId = /action="\/dashboard\/keys\/([^/"]+)\/revoke"/.exec((await them.get('/dashboard/keys')).text)?.[1];
    t.truthy(keyId);
    t.is((await session.post(`/dashboard/keys/${keyId}/revoke`, {}, '/dashboard/keys')).status, 404);
    t.is((await them.get('/dashboard/keys')).status, 200, 'their keys are untouched');
    t.notRegex((await session.get('/dashboard/keys')).text, new RegExp(keyId!));
  },
);

suite.test('the other mode needs that mode’s secret key of the same account', async (t, { engine }) => {
  const session = await signInHttp(engine.url, engine.keys.test);
  t.is((await session.post('/dashboard/mode', { mode: 'live' })).status, 403);
  const other = await engine.createAccount();
  t.is((await session.post('/dashboard/mode', { mode: 'live', key: other.live })).status, 403);
  t.is((await session.post('/dashboard/mode', { mode: 'live', key: engine.keys.livePub })).status, 403);
  t.regex((await session.get('/dashboard')).text, /test mode/);
  t.is((await session.post('/dashboard/mode', { mode: 'live', key: engine.keys.live })).status, 303);
  t.regex((await session.get('/dashboard')).text, /live mode/);
  // a test piece is not live mode's: not listed, not found
  const piece = await client(engine.url, engine.keys.test)('POST', '/v1/postcards', { json: postcard() });
  t.notRegex((await session.get('/dashboard/mail')).text, new RegExp(piece.body.id));
  t.is((await session.get(`/dashboard/mail/${piece.body.id}`)).status, 404);
  // both unlocked: back to test without a key
  t.is((await session.post('/dashboard/mode', { mode: 'test' })).status, 303);
  t.regex((await session.get('/dashboard')).text, /test mode/);
  t.regex((await session.get('/dashboard/mail')).text, new RegExp(piece.body.id));
});

suite.test(
  'HTML in merge variables, descriptions, metadata and addresses is shown as text',
  async (t, { engine, api }) => {
    const evil = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const piece = await api('POST', '/v1/postcards', {
      json: postcard({ description: evil, metadata: { note: evil }, merge_variables: { name: evil } }),
    });
    t.is(piece.status, 200, JSON.stringify(piece.body));
    const address = await api('POST', '/v1/addresses', {
      json: { ...postcard().to, description: evil, name: '<b>Bold</b> Name' },
    });
    t.is(address.status, 200, JSON.stringify(address.body));
    const session = await signInHttp(engine.url, engine.keys.test);
    for (const path of [`/dashboard/mail/${piece.body.id}`, '/dashboard/mail', '/dashboard/addresses']) {
      const page = await session.get(path);
      t.is(page.status, 200, path);
      t.notRegex(page.text, /<script>alert|<img src=x|<b>Bold/i, path);
      t.regex(page.text, /&lt;script&gt;alert\(1\)|&lt;b&gt;Bold/, path);
    }
  },
);

suite.test(
  'every page has a strict CSP and no inline script, inline style or handler attribute',
  async (t, { engine }) => {
    const session = await signInHttp(engine.url, engine.keys.test);
    const pages = [...PAGES.map((p) => session.get(p)), request(engine.url, 'GET', '/dashboard/sign-in')];
    for (const page of await Promise.all(pages)) {
      t.is(page.status, 200);
      const csp = page.headers.get('content-security-policy') ?? '';
      t.regex(csp, /default-src 'none'/);
      t.regex(csp, /script-src 'self'(;|$)/);
      t.notRegex(csp, /unsafe-inline|unsafe-eval|\*|https?:/);
      t.regex(csp, /frame-ancestors 'self'/);
      t.is(page.headers.get('access-control-allow-origin'), null);
      t.is(page.headers.get('x-content-type-options'), 'nosniff');
      t.notRegex(page.text, /<script(?![^>]*\bsrc=)[^>]*>/i, 'no inline script');
      t.notRegex(page.text, /\sstyle=/i, 'no style attribute');
      t.notRegex(page.text, /\son[a-z]+=/i, 'no event-handler attribute');
    }
  },
);

suite.test('an uploaded file whose name holds HTML is named as text', async (t, { engine }) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(TO)) form.append(`to[${k}]`, v);
  form.append('use_type', 'marketing');
  form.append('back', '<p>Back</p>');
  form.append('front', new Blob([minimalPdf('front')]), '<img src=x onerror=alert(3)>.pdf');
  const response = await fetch(`${engine.url}/v1/postcards`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
    body: form,
  });
  const body = (await response.json()) as { id: string };
  t.is(response.status, 200, JSON.stringify(body));
  const session = await signInHttp(engine.url, engine.keys.test);
  const page = (await session.get(`/dashboard/mail/${body.id}`)).text;
  t.notRegex(page, /<img src=x/);
  t.regex(page, /file &lt;img src&#x3D;x onerror&#x3D;alert\(3\)&gt;\.pdf \(application\/pdf/);
});

for (const db of DATABASES) {
  test(`${db}: sign-in attempts are rate-limited per address`, async (t) => {
    const engine = await startEngine({ db });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await postSignIn(engine.url, 'test_wrong')).reply.status);
      t.deepEqual(statuses.slice(0, 10), Array(10).fill(401));
      t.is(statuses[10], 429);
      const { reply } = await postSignIn(engine.url, engine.keys.test);
      t.is(reply.status, 429, 'even a right key waits for the window');
      t.truthy(reply.headers.get('retry-after'));
    } finally {
      await engine.close();
    }
  });

  test(`${db}: behind a trusted proxy: Secure cookies, attempts counted per forwarded client`, async (t) => {
    const engine = await startEngine({ db, env: { TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      const via = (client: string) => ({ 'x-forwarded-proto': 'https', 'x-forwarded-for': client });
      const attempt = async (client: string, key: string) => {
        const form = await request(engine.url, 'GET', '/dashboard/sign-in', { headers: via(client) });
        const pre = cookieFrom(form.headers, 'printpost_sign_in');
        return request(engine.url, 'POST', '/dashboard/sign-in', {
          headers: via(client),
          cookie: `printpost_sign_in=${pre}`,
          form: { _csrf: csrfOf(form.text), key },
        });
      };
      const ok = await attempt('203.0.113.7', engine.keys.test);
      t.is(ok.status, 303);
      t.regex(ok.headers.getSetCookie().find((l) => l.startsWith('printpost_dashboard=')) ?? '', /; Secure/);
      for (let i = 0; i < 10; i++) t.is((await attempt('203.0.113.7', 'test_wrong')).status, 401);
      t.is((await attempt('203.0.113.7', 'test_wrong')).status, 429);
      t.is((await attempt('203.0.113.8', 'test_wrong')).status, 401, 'another client is not held back');
    } finally {
      await engine.close();
    }
  });

  test(`${db}: an expired session is refused`, async (t) => {
    // sessions of 60 ms: the wait below outlasts one whatever the machine's load
    const engine = await startEngine({ db, env: { DASHBOARD_SESSION_MINUTES: '0.001' } });
    try {
      const session = await signInHttp(engine.url, engine.keys.test);
      await new Promise((resolve) => setTimeout(resolve, 300));
      t.is((await session.get('/dashboard')).status, 303);
    } finally {
      await engine.close();
    }
  });
}
