// GET /metrics over real HTTP, on both databases: off without METRICS_TOKEN, refused without the token
// (the spec's error body), and after real traffic (creates, a 404, a rate-limit refusal, a render, a
// webhook delivery, a campaign run) the Prometheus text counts it, by route template only. Every
// family follows Prometheus's naming conventions.
import { databaseSuite } from '../helpers/suite';
import { startEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { TO } from '../helpers/mail';
import { startReceiver } from '../helpers/receiver';
import { settled } from '../print/helpers';
import { CSV_HEADER, createUpload, csvRow, sendFile, uploadCampaign } from '../helpers/audience';

const TOKEN = 'scrape-8f1c2d';
const { test } = databaseSuite({
  workers: true,
  settings: { rate_limit_per_5s: 100_000 },
  env: { METRICS_TOKEN: TOKEN, ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8' },
});

interface Family {
  name: string;
  type?: string;
  help?: string;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

/** The text format read into families (HELP, TYPE, and samples with their labels). */
function parse(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string) => {
    let found = families.get(name);
    if (!found) families.set(name, (found = { name, samples: [] }));
    return found;
  };
  let current: Family | undefined;
  for (const line of text.split('\n')) {
    const meta = /^# (HELP|TYPE) (\S+) (.*)$/.exec(line);
    if (meta) {
      current = family(meta[2]);
      if (meta[1] === 'HELP') current.help = meta[3];
      else current.type = meta[3];
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample || !current) continue;
    const labels = Object.fromEntries(
      [...(sample[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    current.samples.push({ name: sample[1], labels, value: Number(sample[3]) });
  }
  return families;
}

const sum = (
  family: Family | undefined,
  where: (labels: Record<string, string>) => boolean = () => true,
  suffix = '',
) =>
  (family?.samples ?? [])
    .filter((s) => s.name === `${family?.name}${suffix}` && where(s.labels))
    .reduce((total, s) => total + s.value, 0);

test('metrics are off without a token, and refused without the right one', async (t, { engine }) => {
  const bare = await startEngine({ db: engine.db });
  try {
    const off = await fetch(`${bare.url}/metrics`);
    t.is(off.status, 404);
    t.like(await off.json(), { error: { status_code: 404, code: 'not_found' } });
  } finally {
    await bare.close();
  }
  for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
    const refused = await fetch(`${engine.url}/metrics`, { headers: authorization ? { authorization } : {} });
    t.is(refused.status, 401, String(authorization));
    t.like(await refused.json(), { error: { status_code: 401, code: 'unauthorized' } });
  }
  const ok = await fetch(`${engine.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  t.is(ok.status, 200);
  t.regex(String(ok.headers.get('content-type')), /^text\/plain; version=0\.0\.4/);
});

test('after traffic the scrape counts requests, refusals, renders, deliveries and campaign pieces', async (t, ctx) => {
  const { engine, api } = ctx;
  const receiver = await startReceiver();
  try {
    t.is(
      (await api('POST', '/v1/webhooks', { json: { url: receiver.url, event_types: ['postcard.rendered_pdf'] } }))
        .status,
      200,
    );
    for (let i = 0; i < 3; i++) t.is((await api('POST', '/v1/addresses', { json: TO })).status, 200);
    t.is((await api('GET', '/v1/addresses/adr_0000000000000000')).status, 404);
    // another account allowed one request per window: its second is refused
    const name = `metrics-${Math.random().toString(36).slice(2)}`;
    const keys = await engine.createAccount(name);
    await engine.setSetting('rate_limit_per_5s', 1, name);
    const limited = client(engine.url, keys.test);
    const statuses = [(await limited('GET', '/v1/addresses')).status, (await limited('GET', '/v1/addresses')).status];
    t.deepEqual(statuses, [200, 429]);
    const created = await api('POST', '/v1/postcards', {
      json: { to: TO, from: TO, front: '<p>M</p>', back: '<p>M</p>', use_type: 'marketing' },
    });
    await settled(api, '/v1/postcards', String(created.body.id));
    await receiver.waitFor(1);
    const campaignId = await uploadCampaign(t, api);
    const uploadId = await createUpload(t, api, campaignId);
    t.is(
      (await sendFile(engine.url, engine.keys.test, uploadId, `${[CSV_HEADER, csvRow(1), csvRow(2)].join('\n')}\n`))
        .status,
      200,
    );
    const run = (await api('POST', `/v1/campaigns/${campaignId}/send`)).body.id as string;
    for (let i = 0; i < 200; i++) {
      if ((await api('GET', `/v1/campaigns/${campaignId}/runs/${run}`)).body.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const scraped = await fetch(`${engine.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const families = parse(await scraped.text());
    const requests = families.get('printpost_http_requests_total');
    t.true(sum(requests, (l) => l.route === 'POST /v1/addresses' && l.status === '200') >= 3);
    t.true(sum(requests, (l) => l.route === 'GET /v1/addresses/{id}' && l.status === '404') >= 1);
    t.deepEqual(
      requests!.samples
        .filter((s) => /(adr|psc|cmp|upl|run)_[0-9a-f]{6,}/.test(s.labels.route))
        .map((s) => s.labels.route),
      [],
      'routes are templates, never paths with ids',
    );
    t.true(
      sum(families.get('printpost_http_request_duration_seconds'), (l) => l.route === 'POST /v1/addresses', '_count') >=
        3,
    );
    t.true(sum(families.get('printpost_rate_limit_refusals_total')) >= 1);
    t.true(sum(families.get('printpost_renders_total'), (l) => l.job === 'piece' && l.outcome === 'rendered') >= 1);
    t.true(sum(families.get('printpost_render_duration_seconds'), (l) => l.job === 'piece', '_count') >= 1);
    t.true(sum(families.get('printpost_webhook_deliveries_total'), (l) => l.outcome === 'succeeded') >= 1);
    t.true(sum(families.get('printpost_campaign_pieces_total')) >= 2);
    t.is(families.get('printpost_jobs_queued')?.type, 'gauge');
    t.is(families.get('printpost_jobs_oldest_due_age_seconds')?.type, 'gauge');
    t.true(sum(families.get('printpost_process_resident_memory_bytes')) > 10_000_000);
    t.truthy(families.get('printpost_nodejs_eventloop_lag_seconds'));
  } finally {
    await receiver.close();
  }
});

test("every family follows Prometheus's naming conventions", async (t, { engine }) => {
  const scraped = await fetch(`${engine.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const families = parse(await scraped.text());
  t.true(families.size > 20, `${families.size} families`);
  for (const family of families.values()) {
    const { name, type } = family;
    t.regex(name, /^printpost_[a-z0-9_]+$/, 'snake case, one prefix');
    t.truthy(family.help, `${name} has HELP`);
    t.true(['counter', 'gauge', 'histogram', 'summary'].includes(String(type)), `${name} has TYPE`);
    t.notRegex(
      name,
      /_(ms|milliseconds|microseconds|kb|mb|kilobytes|megabytes|minutes|hours|percent)(_|$)/,
      `${name}: base units`,
    );
    if (type === 'counter') t.regex(name, /_total$/, `${name}: a counter ends in _total`);
    else t.notRegex(name, /_total$/, `${name}: only counters end in _total`);
    if (type === 'histogram') t.regex(name, /_(seconds|bytes)$/, `${name}: a histogram names its unit`);
  }
});
