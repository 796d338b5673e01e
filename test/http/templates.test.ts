// Templates and their versions over HTTP, on both databases: the spec's Templates section and the compat notes'
// template and version operations, answers checked against the vendor's schema.
import { databaseSuite } from '../helpers/suite';
import { vendorResponseErrors } from '../helpers/vendorSchema';

const { test } = databaseSuite();

const HTML = '<html><body><h1>Hello {{name}}</h1>{{#if offer}}<p>{{offer}}</p>{{/if}}</body></html>';

type Api = Parameters<Parameters<typeof test>[1]>[1]['api'];

async function template(api: Api, body: Record<string, unknown> = {}) {
  const reply = await api('POST', '/v1/templates', { json: { description: 'Spring', html: HTML, ...body } });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body;
}

test('create makes the template and its first version, published; the answer matches the vendor schema', async (t, {
  api,
}) => {
  const reply = await api('POST', '/v1/templates', {
    json: {
      description: 'Spring',
      html: HTML,
      engine: 'handlebars',
      required_vars: ['name'],
      metadata: { team: 'growth' },
    },
  });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  const created = reply.body;
  t.regex(created.id, /^tmpl_/);
  t.is(created.object, 'template');
  t.is(created.versions.length, 1);
  t.like(created.published_version, { html: HTML, engine: 'handlebars', required_vars: ['name'], object: 'version' });
  t.deepEqual(created.versions[0], created.published_version);
  t.deepEqual(vendorResponseErrors('POST', '/v1/templates', 200, created), []);
  const fetched = await api('GET', `/v1/templates/${created.id}`);
  t.deepEqual(fetched.body, created);
  t.deepEqual(vendorResponseErrors('GET', `/v1/templates/${created.id}`, 200, fetched.body), []);
  t.is((await template(api)).published_version.engine, 'legacy', 'engine defaults to legacy');
});

test('HTML that does not compile as a Handlebars template is invalid_template_html; 100,000 characters is the limit', async (t, {
  api,
}) => {
  for (const html of ['<p>{{#if name}}unclosed</p>', '<p>{{name</p>', '{{/each}}']) {
    const reply = await api('POST', '/v1/templates', { json: { html } });
    t.is(reply.status, 422, html);
    t.is(reply.body.error.code, 'invalid_template_html');
  }
  const tags = await api('POST', '/v1/templates', { json: { html: '{{a}}'.repeat(1_001) } });
  t.is(tags.status, 422);
  t.is(tags.body.error.message, 'html uses more than 1,000 {{…}} merge tags');
  t.is((await api('POST', '/v1/templates', { json: { html: '{{a}}'.repeat(1_000) } })).status, 200, 'the limit itself');
  const long = await api('POST', '/v1/templates', { json: { html: 'x'.repeat(100_001) } });
  t.is(long.status, 422);
  t.is(long.body.error.message, 'html must be at most 100000 characters');
  t.is((await api('POST', '/v1/templates', { json: {} })).body.error.message, 'html is required');
});

test('list assembles each template with its versions and filters by metadata', async (t, { api }) => {
  const tag = `list-${Date.now()}`;
  const a = await template(api, { metadata: { tag } });
  const b = await template(api, { metadata: { tag } });
  await api('POST', `/v1/templates/${a.id}/versions`, { json: { html: '<p>v2</p>' } });
  const page = await api('GET', `/v1/templates?metadata[tag]=${tag}&include[]=total_count`);
  t.is(page.status, 200);
  t.is(page.body.total_count, 2);
  t.deepEqual(
    page.body.data.map((x: { id: string }) => x.id),
    [b.id, a.id],
  );
  t.is(page.body.data[1].versions.length, 2);
  t.deepEqual(vendorResponseErrors('GET', '/v1/templates', 200, page.body), []);
});

test('versions live under their template: a route with two path parameters, each bound', async (t, { api }) => {
  const tmpl = await template(api);
  const other = await template(api);
  const created = await api('POST', `/v1/templates/${tmpl.id}/versions`, {
    json: { description: 'v2', html: '<p>{{x}}</p>', engine: 'handlebars' },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.regex(created.body.id, /^vrsn_/);
  t.deepEqual(vendorResponseErrors('POST', `/v1/templates/${tmpl.id}/versions`, 200, created.body), []);
  const vrsn = created.body.id;
  const got = await api('GET', `/v1/templates/${tmpl.id}/versions/${vrsn}`);
  t.deepEqual(got.body, created.body);
  t.is((await api('GET', `/v1/templates/${other.id}/versions/${vrsn}`)).status, 404, 'not under another template');
  const list = await api('GET', `/v1/templates/${tmpl.id}/versions`);
  t.deepEqual(
    list.body.data.map((v: { id: string }) => v.id),
    [vrsn, tmpl.published_version.id],
  );
  t.is((await api('GET', '/v1/templates/tmpl_missing/versions')).status, 404);
  t.is((await api('POST', '/v1/templates/tmpl_missing/versions', { json: { html: '<p></p>' } })).status, 404);
  const updated = await api('POST', `/v1/templates/${tmpl.id}/versions/${vrsn}`, {
    json: { description: 'renamed', engine: 'legacy' },
  });
  t.like(updated.body, { id: vrsn, description: 'renamed', engine: 'legacy', html: '<p>{{x}}</p>' });
  const withHtml = await api('POST', `/v1/templates/${tmpl.id}/versions/${vrsn}`, { json: { html: '<p>new</p>' } });
  t.is(withHtml.status, 422, 'a version HTML never changes: make a new version');
  t.is(withHtml.body.error.message, 'html is not allowed');
});

test('publishing: update sets the published version; a version of another template or a missing one is refused', async (t, {
  api,
}) => {
  const tmpl = await template(api);
  const other = await template(api);
  const v2 = (await api('POST', `/v1/templates/${tmpl.id}/versions`, { json: { html: '<p>two</p>' } })).body;
  const published = await api('POST', `/v1/templates/${tmpl.id}`, {
    json: { published_version: v2.id, description: 'now two' },
  });
  t.is(published.status, 200);
  t.is(published.body.published_version.id, v2.id);
  t.is(published.body.description, 'now two');
  t.deepEqual(vendorResponseErrors('POST', `/v1/templates/${tmpl.id}`, 200, published.body), []);
  const foreign = await api('POST', `/v1/templates/${tmpl.id}`, {
    json: { published_version: other.published_version.id },
  });
  t.is(foreign.status, 422);
  t.is((await api('POST', `/v1/templates/${tmpl.id}`, { json: { published_version: 'vrsn_nothere' } })).status, 422);
  t.is((await api('POST', '/v1/templates/tmpl_missing', { json: { description: 'x' } })).status, 404);
});

test('the published version is not_deletable; another version deletes; deleting the template deletes its versions', async (t, {
  api,
}) => {
  const tmpl = await template(api);
  const first = tmpl.published_version.id;
  const refused = await api('DELETE', `/v1/templates/${tmpl.id}/versions/${first}`);
  t.is(refused.status, 422);
  t.is(refused.body.error.code, 'not_deletable');
  const v2 = (await api('POST', `/v1/templates/${tmpl.id}/versions`, { json: { html: '<p>two</p>' } })).body;
  const deleted = await api('DELETE', `/v1/templates/${tmpl.id}/versions/${v2.id}`);
  t.deepEqual(deleted.body, { id: v2.id, deleted: true });
  t.is((await api('GET', `/v1/templates/${tmpl.id}`)).body.versions.length, 1);
  t.is((await api('DELETE', `/v1/templates/${tmpl.id}/versions/${v2.id}`)).status, 404);
  const gone = await api('DELETE', `/v1/templates/${tmpl.id}`);
  t.deepEqual(gone.body, { id: tmpl.id, deleted: true });
  t.is((await api('GET', `/v1/templates/${tmpl.id}`)).status, 404);
  t.is((await api('GET', `/v1/templates/${tmpl.id}/versions/${first}`)).status, 404, 'its versions went with it');
});

test('publishing a version and deleting it at once: never both', async (t, { api }) => {
  for (let round = 0; round < 5; round++) {
    const tmpl = await template(api);
    const v2 = (await api('POST', `/v1/templates/${tmpl.id}/versions`, { json: { html: '<p>two</p>' } })).body;
    const [publish, remove] = await Promise.all([
      api('POST', `/v1/templates/${tmpl.id}`, { json: { published_version: v2.id } }),
      api('DELETE', `/v1/templates/${tmpl.id}/versions/${v2.id}`),
    ]);
    t.not(publish.status === 200 && remove.status === 200, true, `round ${round}: both succeeded`);
    const now = (await api('GET', `/v1/templates/${tmpl.id}`)).body;
    t.truthy(now.published_version, 'the template always has a live published version');
    t.true(now.versions.some((v: { id: string }) => v.id === now.published_version.id));
  }
});
