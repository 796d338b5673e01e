// Text that cannot be printed right is refused, not altered (both databases): bytes that are not UTF-8
// (in a JSON, form or multipart body, and in the query string), unpaired surrogates (`\ud800`) in any
// string, and bidi embeddings, overrides and isolates in everything printed or handed on except the
// designer's HTML. Each refusal is the spec's 422 naming the field, and nothing is stored: no address,
// no piece, no event. An uploaded audience row holding one is reported with the reason instead.
import type { ExecutionContext } from 'ava';
import { databaseSuite, type SuiteContext } from '../helpers/suite';
import { client } from '../helpers/http';
import { TO, postcard } from '../helpers/mail';
import { CSV_HEADER, createUpload, csvRow, sendFile, uploadCampaign } from '../helpers/audience';

const { test } = databaseSuite();

/** An account of its own, so its lists show only what a test stored. */
async function fresh({ engine }: SuiteContext) {
  const keys = await engine.createAccount();
  const api = client(engine.url, keys.test);
  /** POSTs `bytes` exactly as given, with `type`. */
  const raw = async (path: string, type: string, bytes: Buffer) => {
    const response = await fetch(`${engine.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${keys.test}:`).toString('base64')}`,
        'content-type': type,
      },
      body: bytes,
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  return { api, raw };
}

/** Nothing of the account's was stored: no address, postcard or event. */
async function nothingStored(t: ExecutionContext, api: ReturnType<typeof client>) {
  for (const path of ['/v1/addresses', '/v1/postcards', '/v1/events'])
    t.is((await api('GET', path)).body.data.length, 0, `${path} is empty`);
}

function refused(t: ExecutionContext, reply: { status: number; body: any }, message: RegExp) {
  t.is(reply.status, 422, JSON.stringify(reply.body));
  t.is(reply.body.error?.code, 'invalid');
  t.is(reply.body.error?.status_code, 422);
  t.regex(reply.body.error?.message ?? '', message);
}

const NOT_UTF8 = /is not valid UTF-8 text/;
const BIDI = /must not contain bidi formatting characters \(U\+202E\)/;

/** A postcard's JSON with `name` as the recipient's name, with bytes spliced in where `@@` stands. */
const postcardJsonWith = (name: string, splice: Buffer) => {
  const [before, after] = JSON.stringify(postcard({ to: { ...TO, name } })).split('@@');
  return Buffer.concat([Buffer.from(before), splice, Buffer.from(after)]);
};

test('bytes that are not UTF-8 in a JSON body are refused naming the field, not printed as U+FFFD', async (t, ctx) => {
  const { api, raw } = await fresh(ctx);
  const reply = await raw('/v1/postcards', 'application/json', postcardJsonWith('A@@B', Buffer.from([0xff, 0xfe])));
  refused(t, reply, /^to\.name /);
  refused(t, reply, NOT_UTF8);
  // a truncated sequence and an encoded surrogate (ED A0 80) are not UTF-8 either
  for (const bytes of [
    [0xe2, 0x80],
    [0xed, 0xa0, 0x80],
  ])
    refused(
      t,
      await raw('/v1/postcards', 'application/json', postcardJsonWith('A@@B', Buffer.from(bytes))),
      /^to\.name /,
    );
  await nothingStored(t, api);
});

test('an unpaired surrogate in any JSON string is refused naming the field', async (t, ctx) => {
  const { api } = await fresh(ctx);
  refused(
    t,
    await api('POST', '/v1/postcards', { json: postcard({ to: { ...TO, name: 'A\ud800B' } }) }),
    /^to\.name is not/,
  );
  const metadata = await api('POST', '/v1/addresses', { json: { ...TO, metadata: { note: 'x\udc00' } } });
  refused(t, metadata, /^metadata\.note is not valid UTF-8 text/);
  const key = await api('POST', '/v1/addresses', { json: { ...TO, metadata: { ['k\ud800']: 'v' } } });
  refused(t, key, /^metadata has a key that is not valid UTF-8 text/);
  // even in artwork: no printer sets it and strict JSON parsers refuse it
  refused(t, await api('POST', '/v1/postcards', { json: postcard({ front: '<html>\ud800</html>' }) }), /^front is not/);
  await nothingStored(t, api);
});

test('bidi controls are refused in printed fields and merge variables; allowed in HTML artwork', async (t, ctx) => {
  const { api } = await fresh(ctx);
  const override = '\u202e';
  refused(
    t,
    await api('POST', '/v1/postcards', { json: postcard({ to: { ...TO, name: `Ann${override}` } }) }),
    /^to\.name /,
  );
  refused(t, await api('POST', '/v1/addresses', { json: { ...TO, address_line1: `210 King St${override}` } }), BIDI);
  const merged = await api('POST', '/v1/postcards', { json: postcard({ merge_variables: { name: `x${override}` } }) });
  refused(t, merged, /^merge_variables\.name must not contain bidi/);
  for (const isolate of ['\u2066', '\u2069', '\u202a'])
    refused(
      t,
      await api('POST', '/v1/addresses', { json: { ...TO, description: `a${isolate}` } }),
      /^description must not/,
    );
  const check = await api('POST', '/v1/addresses', { json: { ...TO, company: `Acme\u2067` } });
  refused(t, check, /^company must not contain bidi formatting characters \(U\+2067\)/);
  await nothingStored(t, api);
  // the designer's HTML may hold them, and direction marks are text anywhere (a Hebrew name needs them)
  const artwork = await api('POST', '/v1/postcards', {
    json: postcard({
      front: `<html><body dir="rtl">\u202bשלום\u202c</body></html>`,
      to: { ...TO, name: 'Dana\u200f' },
    }),
  });
  t.is(artwork.status, 200, JSON.stringify(artwork.body));
  const template = await api('POST', '/v1/templates', { json: { html: `<p>\u2067{{name}}\u2069</p>` } });
  t.is(template.status, 200, JSON.stringify(template.body));
});

test('bytes that are not UTF-8 in a form body, raw or percent-encoded, are refused naming the field', async (t, ctx) => {
  const { api, raw } = await fresh(ctx);
  const form = (name: Buffer) =>
    Buffer.concat([
      Buffer.from('to[name]='),
      name,
      Buffer.from('&to[address_line1]=210+King+St&to[address_city]=San+Francisco&to[address_state]=CA'),
      Buffer.from(
        '&to[address_zip]=94107&front=%3Chtml%3Ef%3C%2Fhtml%3E&back=%3Chtml%3Eb%3C%2Fhtml%3E&use_type=marketing',
      ),
    ]);
  const type = 'application/x-www-form-urlencoded';
  refused(
    t,
    await raw('/v1/postcards', type, form(Buffer.from([0x41, 0xff, 0xfe, 0x42]))),
    /^to\.name is not valid UTF-8/,
  );
  refused(t, await raw('/v1/postcards', type, form(Buffer.from('A%FF%FEB'))), /^to\.name is not valid UTF-8/);
  refused(t, await raw('/v1/postcards', type, form(Buffer.from('Ann%E2%80%AE'))), /^to\.name must not contain bidi/);
  await nothingStored(t, api);
  // well-formed UTF-8, raw or encoded, is read as it was meant
  const fine = await raw('/v1/postcards', type, form(Buffer.from('Jos%C3%A9+Zo\u00eb', 'utf8')));
  t.is(fine.status, 200, JSON.stringify(fine.body));
  t.is(fine.body.to.name, 'JOSÉ ZOË');
});

test('bytes that are not UTF-8 in a multipart field are refused naming the field', async (t, ctx) => {
  const { api, raw } = await fresh(ctx);
  const fields = Object.fromEntries(Object.entries(TO).map(([k, v]) => [`to[${k}]`, v]));
  // the parts written out, so a part holds exactly the bytes given (no filename: a field, not a file)
  const boundary = '----printpost-test';
  const part = (name: string, bytes: Buffer) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
      bytes,
      Buffer.from('\r\n'),
    ]);
  const body = (name: Buffer) =>
    Buffer.concat([
      ...Object.entries({ ...fields, back: '<html>b</html>', front: '<html>f</html>', use_type: 'marketing' })
        .filter(([field]) => field !== 'to[name]')
        .map(([field, value]) => part(field, Buffer.from(value))),
      part('to[name]', name),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
  const type = `multipart/form-data; boundary=${boundary}`;
  refused(t, await raw('/v1/postcards', type, body(Buffer.from([0x41, 0xff, 0x42]))), /^to\.name is not valid UTF-8/);
  refused(
    t,
    await raw('/v1/postcards', type, body(Buffer.from('Ann\u202e', 'utf8'))),
    /^to\.name must not contain bidi/,
  );
  await nothingStored(t, api);
  const fine = await raw('/v1/postcards', type, body(Buffer.from('Zoë', 'utf8')));
  t.is(fine.status, 200, JSON.stringify(fine.body));
  t.is(fine.body.to.name, 'ZOË');
});

test('bytes that are not UTF-8 in the query string are refused naming the parameter', async (t, ctx) => {
  const { api } = await fresh(ctx);
  refused(t, await api('GET', '/v1/addresses?metadata[team]=%FF%FE'), /^metadata\.team is not valid UTF-8/);
  refused(t, await api('GET', '/v1/addresses?metadata[team]=%ED%A0%80'), /^metadata\.team is not valid UTF-8/);
  t.is((await api('GET', '/v1/addresses?metadata[team]=%C3%A9')).status, 200);
  // a parameter no schema reads is held to it too
  const key = await api('POST', '/v1/addresses?idempotency_key=k%FF', { json: TO });
  refused(t, key, /^idempotency_key is not valid UTF-8/);
  t.is((await api('GET', '/v1/addresses')).body.data.length, 0, 'nothing stored');
});

test('an uploaded audience row holding a bidi control is reported with the reason; the others are mailed', async (t, ctx) => {
  const { api, engine } = ctx;
  const campaignId = await uploadCampaign(t, api);
  const uploadId = await createUpload(t, api, campaignId);
  const bad = `Ann\u202eBob,1 Main St,,Springfield,IL,62701,X,s1`;
  const sent = await sendFile(engine.url, engine.keys.test, uploadId, `${[CSV_HEADER, csvRow(1), bad].join('\n')}\n`);
  t.is(sent.status, 200, JSON.stringify(sent.body));
  t.like((await api('GET', `/v1/uploads/${uploadId}`)).body, { totalMailpieces: 2, failedMailpieces: 1 });
  const report = await api('GET', `/v1/uploads/${uploadId}/report?status=Failed`);
  t.is(report.status, 200, JSON.stringify(report.body));
  t.regex(JSON.stringify(report.body), /to\.name must not contain bidi formatting characters \(U\+202E\)/);
  const run = await api('POST', `/v1/campaigns/${campaignId}/send`);
  let done: Record<string, any> = {};
  for (let i = 0; i < 300 && done.status !== 'completed'; i++) {
    done = (await api('GET', `/v1/campaigns/${campaignId}/runs/${run.body.id}`)).body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  t.like(done, { status: 'completed', pieces_created: 1, skipped_count: 1 });
  t.regex(done.skipped[0].reason, /^to\.name must not contain bidi/);
});
