// The templates, campaigns and webhook pages over HTTP on both databases: forms go through the
// catalog's checks and the domain's writes (a template and its published version, a campaign's
// approval with who and when, a webhook whose secret is shown on the create's answer only); a preview
// answers a PNG; another account's objects are 404 pages; a form without its CSRF token is refused.
import { databaseSuite } from '../../helpers/suite';
import { client } from '../../helpers/http';
import { cookieFrom, csrfOf, request, type SessionClient } from './harness';

/** Signs in over HTTP (the sign-in page's token read in either quote style) and posts with each page's token. */
async function signInHttp(base: string, key: string): Promise<SessionClient> {
  const form = await request(base, 'GET', '/dashboard/sign-in');
  const token = /name=['"]_csrf['"] value=['"]([^'"]*)['"]/.exec(form.text)?.[1] ?? '';
  const reply = await request(base, 'POST', '/dashboard/sign-in', {
    cookie: `printpost_sign_in=${cookieFrom(form.headers, 'printpost_sign_in')}`,
    form: { _csrf: token, key },
  });
  const cookie = `printpost_dashboard=${cookieFrom(reply.headers, 'printpost_dashboard')}`;
  if (reply.status !== 303) throw new Error(`sign-in failed: ${reply.status}`);
  return {
    cookie,
    get: (pathname) => request(base, 'GET', pathname, { cookie }),
    post: async (pathname, fields, from = '/dashboard') => {
      const page = await request(base, 'GET', from, { cookie });
      return request(base, 'POST', pathname, { cookie, form: { _csrf: csrfOf(page.text), ...fields } });
    },
  };
}

const { serial } = databaseSuite({ env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8' } });

serial('templates: create, preview, save and publish a version; refusals', async (t, { engine }) => {
  const session = await signInHttp(engine.url, engine.keys.test);
  const made = await session.post(
    '/dashboard/templates',
    { description: 'Card', html: '<p>{{name}}</p>' },
    '/dashboard/templates',
  );
  t.is(made.status, 303, made.text.slice(0, 300));
  const path = String(made.location).split('?')[0];
  const id = path.split('/').pop() ?? '';
  t.regex(id, /^tmpl_/);
  const bad = await session.post('/dashboard/templates', { html: '{{#if}}' }, '/dashboard/templates');
  t.is(bad.status, 422, 'the catalog and domain refuse it, shown on the page');
  t.regex(bad.text, /not a valid template/);

  const preview = await fetch(
    `${engine.url}/dashboard/templates/${id}/preview.png?product=postcards&size=6x11&side=back`,
    {
      headers: { cookie: session.cookie },
    },
  );
  t.is(preview.status, 200);
  t.is(preview.headers.get('content-type'), 'image/png');
  const draft = await session.post(
    `/dashboard/templates/${id}/preview`,
    { html: '<p>draft</p>', product: 'letters', size: 'us_letter', side: 'file' },
    path,
  );
  t.is(draft.status, 200);
  t.regex(draft.headers.get('content-type') ?? '', /text\/html/);
  t.regex(draft.text, /<img src="data:image\/png;base64,iVBOR/, "the draft's drawing inline in the frame document");
  t.regex(draft.headers.get('content-security-policy') ?? '', /img-src 'self' data:; style-src 'self'/);
  t.notRegex(draft.headers.get('content-security-policy') ?? '', /script-src|unsafe/);
  const frame = await session.get(`/dashboard/templates/${id}/preview-frame?product=postcards&size=4x6&side=front`);
  t.is(frame.status, 200);
  t.regex(frame.text, /<img src="\/dashboard\/templates\/tmpl_[0-9a-f]+\/preview\.png\?product&#x3D;postcards/);
  t.notRegex(frame.headers.get('content-security-policy') ?? '', /data:/, 'data: images only where a draft needs them');
  const saved = await session.post(`/dashboard/templates/${id}/versions`, { html: '<p>v2</p>', publish: 'on' }, path);
  t.is(saved.status, 303);
  const api = client(engine.url, engine.keys.test);
  t.is((await api('GET', `/v1/templates/${id}`)).body.published_version.html, '<p>v2</p>');

  const other = await signInHttp(engine.url, (await engine.createAccount()).test);
  t.is((await other.get(`/dashboard/templates/${id}`)).status, 404, "another account's template");
  const noToken = await request(engine.url, 'POST', `/dashboard/templates/${id}/versions`, {
    cookie: session.cookie,
    form: { html: '<p>x</p>' },
  });
  t.is(noToken.status, 403);
});

serial('campaigns: approve and reject through the pages record who and when', async (t, { engine }) => {
  const api = client(engine.url, engine.keys.test);
  const made = await api('POST', '/v1/campaigns', {
    json: { name: 'C', schedule_type: 'immediate', use_type: 'marketing', requires_approval: true },
  });
  const id = made.body.id as string;
  const session = await signInHttp(engine.url, engine.keys.test);
  const page = await session.get(`/dashboard/campaigns/${id}`);
  t.is(page.status, 200);
  t.regex(page.text, /pending/);
  const nobody = await session.post(`/dashboard/campaigns/${id}/approve`, { by: '' }, `/dashboard/campaigns/${id}`);
  t.is(nobody.status, 422, 'who decides is required');
  const rejected = await session.post(
    `/dashboard/campaigns/${id}/reject`,
    { by: 'Dee', reason: 'no' },
    `/dashboard/campaigns/${id}`,
  );
  t.is(rejected.status, 303);
  t.like((await api('GET', `/v1/campaigns/${id}`)).body.approval, {
    status: 'rejected',
    decided_by: 'Dee (dashboard)',
    reason: 'no',
  });
  const sent = await session.post(`/dashboard/campaigns/${id}/send`, {}, `/dashboard/campaigns/${id}`);
  t.is(sent.status, 422, 'a rejected campaign is not sent');
  t.regex(sent.text, /rejected/);
  const paused = await session.post(`/dashboard/campaigns/${id}/pause`, {}, `/dashboard/campaigns/${id}`);
  t.is(paused.status, 303);
  t.is((await api('GET', `/v1/campaigns/${id}`)).body.status, 'paused');
});

serial('webhooks: the secret on the create answer only; a bad URL refused on the page', async (t, { engine }) => {
  const session = await signInHttp(engine.url, engine.keys.test);
  const made = await session.post(
    '/dashboard/webhooks',
    { url: 'http://127.0.0.1:9/hook', event_types: 'address.created' },
    '/dashboard/webhooks',
  );
  t.is(made.status, 200);
  const secret = /<code id="secret">([^<]+)<\/code>/.exec(made.text)?.[1] ?? '';
  t.true(secret.length > 10);
  const api = client(engine.url, engine.keys.test);
  const id = (await api('GET', '/v1/webhooks')).body.data[0].id as string;
  const again = await session.get(`/dashboard/webhooks/${id}`);
  t.false(again.text.includes(secret));
  const bad = await session.post('/dashboard/webhooks', { url: 'not a url', event_types: '*' }, '/dashboard/webhooks');
  t.is(bad.status, 422);
  const unknown = await session.post(
    '/dashboard/webhooks',
    { url: 'https://example.com/h', event_types: 'nope.event' },
    '/dashboard/webhooks',
  );
  t.is(unknown.status, 422);
});
