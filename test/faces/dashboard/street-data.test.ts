// What street data is loaded and what answered, where an operator looks (issue 46): `GET /health`'s
// `street_data`, the dashboard's health page (names escaped) and its verify form, before and after a
// TIGER/Line county and an OpenAddresses file are imported through the real CLI, on both databases.
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEngine } from '../../helpers/engine';
import { run } from '../../helpers/cli';
import { DATABASES } from '../../helpers/matrix';
import { openAddressesCsv, tigerZip, type Segment } from '../../helpers/streets';
import { signInHttp } from './harness';

const SF = '06075';
const BERRY: Segment = {
  name: 'Berry St',
  left: ['101', '199', '94107', 'O'],
  right: ['100', '198', '94107', 'E'],
  line: [
    [-122.4, 37.77],
    [-122.39, 37.776],
  ],
};
const POINTS = [
  { lon: -122.3955, lat: 37.7765, number: '185', street: 'Berry Street', postcode: '94107' },
  { lon: -122.3961, lat: 37.7771, number: '300', street: 'King St', postcode: '94107' },
];
// a source name is the file's: markup in it must reach the page as text
const MARKED = '<b>sf&co';

async function healthJson(url: string) {
  const reply = await fetch(`${url}/health`);
  return (await reply.json()) as { street_data: unknown };
}

for (const db of DATABASES) {
  test(`${db}: health and the dashboard show the street data loaded, and the verify form what answered`, async (t) => {
    const engine = await startEngine({ db, settings: { payment_method_verified: true, email_verified: true } });
    t.teardown(() => engine.close());
    const session = await signInHttp(engine.url, engine.keys.live);

    t.deepEqual((await healthJson(engine.url)).street_data, [], 'nothing loaded: an empty list');
    t.regex((await session.get('/dashboard/health')).text, /None loaded: live US verification checks the city/);
    const before = await session.post('/dashboard/addresses/verify', {
      primary_line: '151 Berry St',
      zip_code: '94107',
    });
    t.regex(before.text, /id="answered-by"[^>]*>Answered by the city, state and ZIP code only/);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-street-health-'));
    const imported = await run(
      ['streets', 'import', await tigerZip(dir, SF, [BERRY]), openAddressesCsv(dir, `${MARKED}.csv`, POINTS)],
      { DATABASE_URL: engine.databaseUrl, LOG_LEVEL: 'silent' },
    );
    t.is(imported.code, 0, imported.err);

    const loaded = (await healthJson(engine.url)).street_data as Record<string, unknown>[];
    t.like(loaded, [
      { kind: 'tiger_addrfeat', answers: 'street_ranges', sources: 1, names: [SF], rows: 1 },
      { kind: 'openaddresses', answers: 'address_points', sources: 1, names: [MARKED], rows: 2 },
    ]);
    t.is(loaded.length, 2);
    for (const kind of loaded) t.regex(String(kind.loaded_at), /^\d{4}-\d\d-\d\dT/);

    const page = (await session.get('/dashboard/health')).text;
    t.regex(page, /TIGER\/Line address ranges<\/strong>: 1 county \(<code>06075<\/code>\), 1 row,/);
    t.regex(page, /OpenAddresses points<\/strong>: 1 source \(<code>&lt;b&gt;sf&amp;co<\/code>\), 2 rows/);
    t.false(page.includes(MARKED), 'a source name is escaped');

    const ranges = await session.post('/dashboard/addresses/verify', {
      primary_line: '151 Berry St',
      zip_code: '94107',
    });
    t.regex(ranges.text, /Answered by the loaded TIGER\/Line street ranges .*<code>street_data: street_ranges<\/code>/);
    const invented = await session.post('/dashboard/addresses/verify', {
      primary_line: '99999 Nonexistent Blvd',
      zip_code: '94107',
    });
    t.regex(invented.text, /status-undeliverable/);
    t.regex(invented.text, /street_data: street_ranges/);
    const points = await session.post('/dashboard/addresses/verify', {
      primary_line: '300 King St',
      zip_code: '94107',
    });
    t.regex(points.text, /Answered by the loaded address points/);
    const elsewhere = await session.post('/dashboard/addresses/verify', {
      primary_line: '1 Main St',
      city: 'Boston',
      state: 'MA',
      zip_code: '02108',
    });
    t.regex(elsewhere.text, /<code>street_data: last_line<\/code>/, 'a ZIP without data: the last line only');
  });
}
