// Live US verification with street data (issue 46): fixtures written in the real formats by libraries
// (test/helpers/streets.ts), loaded through the real `printpost streets import`, then verified over
// HTTP with a live key, on SQLite and PostgreSQL.
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { startEngine, type TestEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { run } from '../../helpers/cli';
import { DATABASES } from '../../helpers/matrix';
import { nadTxt, openAddressesCsv, tigerZip, addrfeatShapefile, type Segment } from '../../helpers/streets';
import { judgeUsAddress } from '../../../engine/domain/verify/us-verifier';

const SF = '06075';
const SF_SEGMENTS: Segment[] = [
  // odd on the left, even on the right
  {
    name: 'Berry St',
    left: ['101', '199', '94107', 'O'],
    right: ['100', '198', '94107', 'E'],
    line: [
      [-122.4, 37.77],
      [-122.39, 37.776],
    ],
  },
  // the right side only, even numbers
  {
    name: 'King St',
    right: ['200', '298', '94107', 'E'],
    line: [
      [-122.395, 37.777],
      [-122.39, 37.78],
    ],
  },
  // a ZIP boundary down the middle: odd numbers in 94158, even ones in 94107
  {
    name: 'Owens St',
    left: ['1', '99', '94158', 'O'],
    right: ['2', '98', '94107', 'E'],
    line: [
      [-122.397, 37.768],
      [-122.397, 37.772],
    ],
  },
  // both parities on one side, in another ZIP
  {
    name: 'Mission Bay Blvd N',
    left: ['1', '99', '94158', 'B'],
    line: [
      [-122.395, 37.77],
      [-122.39, 37.77],
    ],
  },
];
const POINTS = [
  { lon: -122.3955, lat: 37.7765, number: '185', street: 'Berry Street', postcode: '94107' },
  { lon: -122.3955, lat: 37.7765, number: '185', street: 'Berry Street', unit: 'Apt 1', postcode: '94107' },
  { lon: -122.3955, lat: 37.7765, number: '185', street: 'Berry Street', unit: 'Apt 2', postcode: '94107' },
  { lon: -122.3961, lat: 37.7771, number: '300', street: 'King St', postcode: '94107' },
  { lon: -122.39, lat: 37.7, number: '5', street: '', postcode: '94107' },
];

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-streets-'));

const engines = new Map<string, Promise<TestEngine>>();
test.after.always(async () => {
  for (const e of engines.values()) await (await e).close();
});

function engineFor(db: (typeof DATABASES)[number]): Promise<TestEngine> {
  if (!engines.has(db))
    engines.set(db, startEngine({ db, settings: { payment_method_verified: true, email_verified: true } }));
  return engines.get(db)!;
}

for (const db of DATABASES) {
  const setup = async () => {
    const engine = await engineFor(db);
    const env = { DATABASE_URL: engine.databaseUrl, LOG_LEVEL: 'silent' };
    const api = client(engine.url, engine.keys.live);
    const verify = async (address: string) => {
      const reply = await api('POST', '/v1/us_verifications', { json: { address } });
      if (reply.status !== 200) throw new Error(`${address}: ${reply.status} ${JSON.stringify(reply.body)}`);
      return reply.body;
    };
    return { engine, env, api, verify, streets: (...args: string[]) => run(['streets', ...args], env) };
  };

  test(`${db}: with street data, live verification needs a known street and a number in a side's range or at a point`, async (t) => {
    const { verify, streets } = await setup();
    const dir = tempDir();
    const imported = await streets(
      'import',
      await tigerZip(dir, SF, SF_SEGMENTS),
      openAddressesCsv(dir, 'us-ca-sf.csv', POINTS),
    );
    t.is(imported.code, 0, imported.err);
    t.regex(imported.out, /tl_2024_06075_addrfeat\.zip: county 06075, 4 rows loaded, 0 skipped/);
    t.regex(imported.out, /us-ca-sf\.csv: source us-ca-sf, 4 rows loaded, 1 skipped \(1 no street name\)/);

    const invented = await verify('99999 Nonexistent Blvd, 94107');
    t.is(invented.deliverability, 'undeliverable', 'an invented street is never deliverable');
    t.deepEqual(invented.deliverability_analysis.dpv_footnotes, ['A1']);
    t.is(invented.street_data, 'street_ranges');
    t.is(invented.components.latitude, null);

    const odd = await verify('151 Berry St, San Francisco CA 94107');
    t.is(odd.deliverability, 'deliverable');
    t.is(odd.street_data, 'street_ranges');
    const share = 50 / 98;
    t.is(odd.components.longitude, Math.round((-122.4 + 0.01 * share) * 1e6) / 1e6, 'interpolated along the side');
    t.is(odd.components.latitude, Math.round((37.77 + 0.006 * share) * 1e6) / 1e6);
    t.is(odd.components.county, 'SAN FRANCISCO');
    t.is(odd.components.county_fips, SF);
    t.is(odd.deliverability_analysis.dpv_confirmation, '', 'the data is not USPS delivery point data');
    t.deepEqual(odd.deliverability_analysis.dpv_footnotes, []);

    t.is((await verify('152 Berry St, 94107')).deliverability, 'deliverable', 'the even side');
    t.is((await verify('201 Berry St, 94107')).deliverability, 'undeliverable', 'past both sides');
    const wrongParity = await verify('201 King St, 94107');
    t.is(wrongParity.deliverability, 'undeliverable', 'an odd number on an even-only side');
    t.deepEqual(wrongParity.deliverability_analysis.dpv_footnotes, ['M3']);
    t.is((await verify('202 King St, 94107')).deliverability, 'deliverable');
    t.is((await verify('2 Mission Bay Blvd N, 94158')).deliverability, 'deliverable', 'parity B takes even');
    t.is((await verify('3 Mission Bay Blvd N, 94158')).deliverability, 'deliverable', 'parity B takes odd');

    t.is((await verify('3 Owens St, 94158')).deliverability, 'deliverable', 'a side in its own ZIP');
    t.is((await verify('4 Owens St, 94107')).deliverability, 'deliverable');
    t.is((await verify('3 Owens St, 94107')).deliverability, 'undeliverable', "the other side's ZIP");
    t.is((await verify('4 Owens St, 94158')).deliverability, 'undeliverable');

    const typo = await verify('151 Berri St, 94107');
    t.is(typo.deliverability, 'deliverable');
    t.is(typo.primary_line, '151 BERRY ST', 'a one-letter misspelling is corrected');
    const typo2 = await verify('5 Misson Bay Blvd N, 94158');
    t.is(typo2.primary_line, '5 MISSION BAY BLVD N');
    t.is((await verify('151 Berry, 94107')).primary_line, '151 BERRY ST', 'a missing suffix is filled in');
    t.is((await verify('151 Berry Ave, 94107')).deliverability, 'undeliverable', 'another suffix is another street');

    const missing = await verify('185 Berry St, 94107');
    t.is(missing.deliverability, 'deliverable_missing_unit', 'the points know units at 185 and none was given');
    t.is(missing.street_data, 'address_points');
    t.is(missing.components.latitude, 37.7765);
    t.is(missing.components.longitude, -122.3955);
    t.is((await verify('185 Berry St Apt 1, 94107')).deliverability, 'deliverable');
    t.is((await verify('185 Berry St # 2, 94107')).deliverability, 'deliverable');
    t.is((await verify('185 Berry St Apt 9, 94107')).deliverability, 'deliverable_incorrect_unit');
    const point = await verify('300 King St, 94107');
    t.is(point.deliverability, 'deliverable', 'a point beyond the ranges');
    t.is(point.street_data, 'address_points');
  });

  test(`${db}: live autocomplete suggests loaded streets with the typed number where the data holds it`, async (t) => {
    const { api, streets } = await setup();
    const dir = tempDir();
    const segments: Segment[] = [
      {
        name: 'Vermont St',
        left: ['101', '199', '94103', 'O'],
        line: [
          [-122.404, 37.766],
          [-122.404, 37.768],
        ],
      },
      {
        name: 'Verona Pl',
        left: ['1', '9', '94103', 'B'],
        line: [
          [-122.405, 37.766],
          [-122.405, 37.767],
        ],
      },
      {
        name: 'N Point St',
        right: ['100', '198', '94133', 'E'],
        line: [
          [-122.41, 37.806],
          [-122.409, 37.806],
        ],
      },
    ];
    t.is((await streets('import', await tigerZip(dir, '06085', segments))).code, 0);
    const complete = async (body: Record<string, string>) => {
      const reply = await api('POST', '/v1/us_autocompletions', { json: body });
      t.is(reply.status, 200, JSON.stringify(reply.body));
      return (reply.body.suggestions as { primary_line: string; city: string; zip_code: string }[]).map(
        (s) => `${s.primary_line}, ${s.city} ${s.zip_code}`,
      );
    };
    t.deepEqual(await complete({ address_prefix: '151 Ver', zip_code: '94103' }), [
      '151 VERMONT ST, SAN FRANCISCO 94103',
    ]);
    t.deepEqual(await complete({ address_prefix: '5 Ver', city: 'San Francisco', state: 'CA' }), [
      '5 VERONA PL, SAN FRANCISCO 94103',
    ]);
    t.deepEqual(await complete({ address_prefix: 'Ver', zip_code: '94103' }), [
      'VERMONT ST, SAN FRANCISCO 94103',
      'VERONA PL, SAN FRANCISCO 94103',
    ]);
    t.deepEqual(await complete({ address_prefix: '120 N Poi', zip_code: '94133' }), [
      '120 N POINT ST, SAN FRANCISCO 94133',
    ]);
    t.deepEqual(await complete({ address_prefix: '121 N Poi', zip_code: '94133' }), [], 'odd on an even side');
  });

  test(`${db}: a ZIP without street data answers exactly as the last line alone`, async (t) => {
    const { verify, streets } = await setup();
    const dir = tempDir();
    t.is(
      (
        await streets(
          'import',
          await tigerZip(dir, '06081', [
            {
              name: 'Main St',
              left: ['1', '99', '94401', 'B'],
              line: [
                [-122.3, 37.5],
                [-122.29, 37.5],
              ],
            },
          ]),
        )
      ).code,
      0,
    );
    for (const address of [
      '99999 Nonexistent Blvd, 94110-1702',
      '210 King St, San Francisco CA 94105',
      '5 Main St, 94402',
    ]) {
      const { id: _id, street_data, ...live } = await verify(address);
      const { id: _before, street_data: _none, ...lastLine } = judgeUsAddress({ address }).verification;
      t.is(street_data, 'last_line', address);
      t.deepEqual(live, JSON.parse(JSON.stringify(lastLine)), address);
    }
  });

  test(`${db}: a National Address Database export's points judge numbers and units as OpenAddresses' do`, async (t) => {
    const { verify, streets } = await setup();
    const file = nadTxt(tempDir(), 'NAD_r21_sample.txt', [
      { lon: -122.3901, lat: 37.7301, number: '1500', street: 'Oakdale Avenue', unit: 'Unit 3', postcode: '94124' },
      { lon: -122.3901, lat: 37.7301, number: '1500', street: 'Oakdale Avenue', unit: 'Unit 4', postcode: '94124' },
      { lon: -122.3911, lat: 37.7311, number: '1510', street: 'Oakdale Avenue', postcode: '94124' },
      { lon: -122.3911, lat: 37.7311, number: '1512', street: 'Oakdale Avenue', postcode: '' },
    ]);
    const imported = await streets('import', file);
    t.is(imported.code, 0, imported.err);
    t.regex(
      imported.out,
      /NAD_r21_sample\.txt: source NAD_r21_sample, 3 rows loaded, 1 skipped \(1 no 5-digit ZIP code\)/,
    );
    const point = await verify('1510 Oakdale Ave, 94124');
    t.is(point.deliverability, 'deliverable');
    t.is(point.street_data, 'address_points');
    t.is(point.components.latitude, 37.7311);
    t.is((await verify('1500 Oakdale Ave, 94124')).deliverability, 'deliverable_missing_unit');
    t.is((await verify('1500 Oakdale Ave Unit 4, 94124')).deliverability, 'deliverable');
    t.is((await verify('1500 Oakdale Ave Apt 7, 94124')).deliverability, 'deliverable_incorrect_unit');
    const absent = await verify('1502 Oakdale Ave, 94124');
    t.is(absent.deliverability, 'undeliverable', 'no point and no range holds the number');
    t.deepEqual(absent.deliverability_analysis.dpv_footnotes, ['M3']);
    t.regex((await streets('status')).out, /^nad\tNAD_r21_sample\t3 rows\t1 skipped\t/m);
  });

  test(`${db}: a county loaded again replaces what it loaded before`, async (t) => {
    const { verify, streets } = await setup();
    const county = '06001';
    const first = tempDir();
    const oak: Segment = {
      name: 'Oak St',
      left: ['1', '99', '94501', 'B'],
      line: [
        [-122.27, 37.77],
        [-122.26, 37.77],
      ],
    };
    const elm: Segment = {
      name: 'Elm St',
      left: ['1', '99', '94501', 'B'],
      line: [
        [-122.27, 37.78],
        [-122.26, 37.78],
      ],
    };
    t.is((await streets('import', await tigerZip(first, county, [oak]))).code, 0);
    t.is((await verify('51 Oak St, 94501')).deliverability, 'deliverable');
    const again = await streets('import', await tigerZip(tempDir(), county, [elm]));
    t.is(again.code, 0, again.err);
    t.is((await verify('51 Oak St, 94501')).deliverability, 'undeliverable', 'the old load is gone');
    t.is((await verify('51 Elm St, 94501')).deliverability, 'deliverable');
    const status = await streets('status');
    t.is(status.out.split('\n').filter((l) => l.startsWith(`tiger_addrfeat\t${county}\t`)).length, 1, status.out);
  });

  test(`${db}: a refused file leaves the data as it was, with one sentence`, async (t) => {
    const { verify, streets } = await setup();
    const county = '06013';
    const dir = tempDir();
    const pine: Segment = {
      name: 'Pine St',
      left: ['1', '99', '94520', 'B'],
      line: [
        [-122.03, 37.97],
        [-122.02, 37.97],
      ],
    };
    t.is((await streets('import', await tigerZip(dir, county, [pine]))).code, 0);
    const mine = async () =>
      (await streets('status')).out.split('\n').filter((l) => l.startsWith(`tiger_addrfeat\t${county}\t`));
    const before = await mine();
    t.is(before.length, 1);

    const bad = tempDir();
    const name = `tl_2024_${county}_addrfeat.zip`;
    const notZip = path.join(bad, 'a', name);
    fs.mkdirSync(path.dirname(notZip));
    fs.writeFileSync(notZip, 'this is not a zip file\n');
    const noShapefile = path.join(bad, 'b', name);
    fs.mkdirSync(path.dirname(noShapefile));
    fs.writeFileSync(noShapefile, zipSync({ 'readme.txt': Buffer.from('no shapefile here') }));
    const broken = path.join(bad, 'c', name);
    fs.mkdirSync(path.dirname(broken));
    const whole = fs.readFileSync(await tigerZip(tempDir(), county, [{ ...pine, name: 'Cedar St' }]));
    fs.writeFileSync(broken, whole.subarray(0, Math.floor(whole.length / 2)));
    const missingField = path.join(bad, 'd', name);
    fs.mkdirSync(path.dirname(missingField));
    const files = await addrfeatShapefile([{ ...pine, name: 'Cedar St' }], ['ZIPL']);
    fs.writeFileSync(missingField, zipSync({ 'x.shp': files.shp, 'x.shx': files.shx, 'x.dbf': files.dbf }));
    const csv = openAddressesCsv(bad, 'points.csv', POINTS, ['LON', 'LAT', 'NUMBER', 'STREET']);

    const refusals: [string, RegExp][] = [
      [notZip, /is not a zip file\.$/],
      [noShapefile, /holds no shapefile/],
      [broken, /is a broken zip file/],
      [missingField, /lacks the field ZIPL\.$/],
      [csv, /is not an OpenAddresses CSV \(.*\): its header lacks UNIT, POSTCODE\.$/],
    ];
    for (const [file, sentence] of refusals) {
      const refused = await streets('import', file);
      t.is(refused.code, 1, file);
      t.regex(refused.err.trim(), sentence);
      t.is(refused.err.trim().split('\n').length, 1, 'one sentence, no stack trace');
    }
    t.is((await verify('51 Pine St, 94520')).deliverability, 'deliverable', 'the data is as it was');
    t.is((await verify('51 Cedar St, 94520')).deliverability, 'undeliverable');
    t.deepEqual(await mine(), before);
  });

  test(`${db}: live addresses saved to the book are corrected by the street data`, async (t) => {
    const { api, streets } = await setup();
    const dir = tempDir();
    const seg: Segment = {
      name: 'Harrison St',
      left: ['1', '99', '94080', 'B'],
      line: [
        [-122.4, 37.65],
        [-122.39, 37.65],
      ],
    };
    t.is((await streets('import', await tigerZip(dir, '06082', [seg]))).code, 0);
    const created = await api('POST', '/v1/addresses', {
      json: {
        name: 'A',
        address_line1: '7 Harison',
        address_city: 'South San Francisco',
        address_state: 'CA',
        address_zip: '94080',
      },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    t.is(created.body.address_line1, '7 HARRISON ST');
  });
}
