// Letters' tracking numbers are drawn from the operator's identity, through real engines sharing one
// database, on each database: a live certified number carries the configured Mailer ID after Pub 199's
// channel and service type, with a serial no other letter has (whichever engine made it) and a valid
// check digit; registered numbers come from the configured S10 range in order, with their S10 check
// digit, and a used-up range refuses the next letter; without a range a live registered letter is
// refused and nothing is made; a certified letter made before the Mailer ID was set is numbered when
// it is drawn. Test letters keep sample numbers.
import test, { type ExecutionContext } from 'ava';
import { DATABASES } from '../../helpers/matrix';
import { freshDatabase, startEngine, USPS_ENV, type Db, type TestEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { letter } from '../../helpers/mail';
import { mod10, s10Check } from '../../../engine/print/overlay/tracking-number';
import { liveAccount, type Call } from '../production/production-helpers';
import { created, get, rendered } from '../production/lifecycle-helpers';

/** A small range, so it is used up within the test. */
const RANGE = { USPS_S10_SERVICE_INDICATOR: 'RA', USPS_S10_FIRST_SERIAL: '00000007', USPS_S10_LAST_SERIAL: '00000009' };
const NO_RANGE = { USPS_S10_SERVICE_INDICATOR: '', USPS_S10_FIRST_SERIAL: '', USPS_S10_LAST_SERIAL: '' };

async function count(call: Call, path: string): Promise<number> {
  const reply = await call<{ data: unknown[] }>('GET', `${path}?limit=100`);
  return reply.body.data.length;
}

/** One database, engines coming and going on it as processes of one deployment. */
async function deployment(t: ExecutionContext, db: Db) {
  const database = await freshDatabase(db);
  const engines: TestEngine[] = [];
  t.teardown(async () => {
    for (const e of engines) await e.close();
    await database.drop();
  });
  return async (env: Record<string, string>, workers = false) => {
    const engine = await startEngine({ db, database: database.url, workers, env });
    engines.push(engine);
    return engine;
  };
}

function assertCertified(t: ExecutionContext, number: string, service: string, mailerId: string): string {
  t.regex(number, /^\d{22}$/);
  t.is(number.slice(0, 2), mailerId.length === 6 ? '93' : '92', 'the channel for the Mailer ID length');
  t.is(number.slice(2, 5), service === 'certified' ? '921' : '923', 'the service type code');
  t.is(number.slice(5, 5 + mailerId.length), mailerId, 'the configured Mailer ID');
  t.is(mod10(number.slice(0, 21)), number[21], 'the mod 10 check digit');
  return number.slice(5 + mailerId.length, 21);
}

async function scenario(t: ExecutionContext, db: Db) {
  t.timeout(300_000);
  const engine = await deployment(t, db);
  const first = await engine({ ...USPS_ENV, ...RANGE });
  const { keys, live, test: testKey } = await liveAccount(first);

  // certified: the Mailer ID at its place, distinct serials, from two engines at once
  const second = await engine({ ...USPS_ENV, ...RANGE });
  const other = client(second.url, keys.live);
  const services = ['certified', 'certified_return_receipt', 'certified', 'certified'];
  const letters = await Promise.all(
    [...services, ...services].map((service, i) =>
      created(i < services.length ? live : other, 'letters', letter({ extra_service: service })),
    ),
  );
  const serials = letters.map((l) => assertCertified(t, String(l.tracking_number), String(l.extra_service), '123456'));
  t.is(new Set(serials).size, serials.length, `serials distinct: ${serials.join(' ')}`);
  const sample = await created(testKey, 'letters', letter({ extra_service: 'certified' }));
  t.regex(String(sample.tracking_number), /^93921999999\d{11}$/, 'a test letter keeps the sample Mailer ID');

  // registered: the configured range in order, across engines, then used up
  const registered: string[] = [];
  for (const call of [live, other, live]) {
    registered.push(String((await created(call, 'letters', letter({ extra_service: 'registered' }))).tracking_number));
  }
  t.deepEqual(
    registered,
    ['00000007', '00000008', '00000009'].map((serial) => `RA${serial}${s10Check(serial)}US`),
  );
  const before = await count(live, '/v1/letters');
  const usedUp = await other('POST', '/v1/letters', { json: letter({ extra_service: 'registered' }) });
  t.is(usedUp.status, 422, JSON.stringify(usedUp.body));
  t.is(usedUp.body.error.code, 'invalid');
  t.regex(usedUp.body.error.message, /range is used up.*RA000000093US.*USPS_S10_FIRST_SERIAL/);
  t.is(await count(live, '/v1/letters'), before, 'no letter made past the range');

  // no range: a live registered letter is refused, nothing made; test letters still get sample numbers
  const bare = await engine({ ...USPS_ENV, ...NO_RANGE });
  const bareLive = client(bare.url, keys.live);
  const letterCount = await count(bareLive, '/v1/letters');
  const addressCount = await count(bareLive, '/v1/addresses');
  const refused = await bareLive('POST', '/v1/letters', {
    json: letter({ extra_service: 'registered', to: { ...letter().to, name: 'Nobody New' } }),
  });
  t.is(refused.status, 422, JSON.stringify(refused.body));
  t.deepEqual(Object.keys(refused.body), ['error']);
  t.is(refused.body.error.code, 'invalid');
  t.regex(refused.body.error.message, /registered mail is off: set USPS_S10_SERVICE_INDICATOR, USPS_S10_FIRST_SERIAL/);
  t.is(await count(bareLive, '/v1/letters'), letterCount, 'no letter made');
  t.is(await count(bareLive, '/v1/addresses'), addressCount, 'no address saved');
  const sampleRegistered = await created(
    client(bare.url, keys.test),
    'letters',
    letter({ extra_service: 'registered' }),
  );
  t.regex(String(sampleRegistered.tracking_number), /^RR99\d{7}US$/, 'a test letter draws from the sample range');

  // a certified letter made before the Mailer ID was configured is numbered when it is drawn
  const early = await engine({ ...USPS_ENV, USPS_MAILER_ID: '' });
  const waiting = await created(client(early.url, keys.live), 'letters', letter({ extra_service: 'certified' }));
  t.is(waiting.tracking_number, null, 'no number without the Mailer ID, never random digits');
  const drawing = await engine({ ...USPS_ENV, USPS_MAILER_ID: '912345678' }, true);
  const drawn = await rendered(client(drawing.url, keys.live), 'letters', waiting.id);
  const late = assertCertified(t, String(drawn.tracking_number), 'certified', '912345678');
  t.is(late.length, 7, 'a 9-digit Mailer ID leaves 7 serial digits');
  t.is((await get(live, 'letters', waiting.id)).tracking_number, drawn.tracking_number, 'kept on the piece');
}

for (const db of DATABASES) {
  test.serial(`${db}: tracking numbers carry the Mailer ID and come from the S10 range, never random`, (t) =>
    scenario(t, db),
  );
}
