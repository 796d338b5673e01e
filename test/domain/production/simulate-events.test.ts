// Every event a trigger offers can be produced with a test key, through a real engine with its workers
// on each database: simulate's `event` makes the exceptions (re-routed, returned to sender,
// international exit abroad), a certified letter's pickup available and issue with their details, a
// return envelope's scans and a rejection, each recorded on the piece, marked simulated and delivered
// to a real receiver as its webhook event; stories real mail cannot have are refused with 422, as
// are live keys.
import test, { type ExecutionContext } from 'ava';
import { DATABASES } from '../../helpers/matrix';
import { startReceiver } from '../../helpers/receiver';
import { ABROAD, letter, postcard } from '../../helpers/mail';
import { liveAccount, printpost, type Call } from './production-helpers';
import {
  created,
  enginePerDatabase,
  eventsOf,
  get,
  hook,
  rendered,
  type Piece,
  type Tracked,
} from './lifecycle-helpers';

const engines = enginePerDatabase();
test.after.always(() => engines.close());

const names = (events: unknown) => ((events ?? []) as Tracked[]).map((e) => e.name);

async function simulate(t: ExecutionContext, call: Call, kind: string, id: string, json: unknown): Promise<Piece> {
  const reply = await call<Piece>('POST', `/v1/${kind}/${id}/simulate`, { json });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

async function refused(t: ExecutionContext, call: Call, kind: string, id: string, json: unknown, message: RegExp) {
  const reply = await call<{ error: { message: string; code: string; status_code: number } }>(
    'POST',
    `/v1/${kind}/${id}/simulate`,
    { json },
  );
  t.is(reply.status, 422, `${JSON.stringify(json)}: ${JSON.stringify(reply.body)}`);
  t.is(reply.body.error?.status_code, 422);
  t.regex(reply.body.error?.message ?? '', message);
}

const HOOKED = [
  'postcard.re-routed',
  'postcard.returned_to_sender',
  'postcard.rejected',
  'letter.international_exit',
  'letter.certified.pickup_available',
  'letter.certified.issue',
  'letter.return_envelope.in_transit',
  'letter.return_envelope.returned_to_sender',
];

for (const db of DATABASES)
  test.serial(
    `${db}: simulate produces every exception, certified, return envelope and rejection event in test mode`,
    async (t) => {
      t.timeout(240_000);
      const s = await engines.setupFor(db);
      const { live, test: testKey } = await liveAccount(s.engine);
      const receiver = await startReceiver();
      try {
        await hook(testKey, receiver.url, HOOKED);
        const card = await created(testKey, 'postcards', postcard());
        const spoiled = await created(testKey, 'postcards', postcard());
        const abroad = await created(testKey, 'letters', letter({ to: ABROAD }));
        const certified = await created(testKey, 'letters', letter({ extra_service: 'certified' }));
        const envelope = await created(testKey, 'letters', letter({ return_envelope: true, perforated_page: 1 }));
        const plain = await created(testKey, 'letters', letter());
        for (const [kind, piece] of [
          ['postcards', card],
          ['postcards', spoiled],
          ['letters', abroad],
          ['letters', certified],
          ['letters', envelope],
          ['letters', plain],
        ] as const)
          await rendered(testKey, kind, piece.id);

        // exceptions follow the step they happen after; Returned to Sender ends the life
        let piece = await simulate(t, testKey, 'postcards', card.id, { event: 're-routed' });
        t.deepEqual(names(piece.tracking_events), ['Mailed', 'In Transit', 'Re-Routed']);
        t.like(piece, { production: { simulated: true } });
        piece = await simulate(t, testKey, 'postcards', card.id, { event: 'returned_to_sender' });
        t.deepEqual(names(piece.tracking_events), [
          'Mailed',
          'In Transit',
          'Re-Routed',
          'In Local Area',
          'Returned to Sender',
        ]);
        t.true(piece.tracking_events.every((e) => e.simulated === true));
        await refused(
          t,
          testKey,
          'postcards',
          card.id,
          { through: 'delivered' },
          /Delivered cannot follow Returned to Sender/,
        );
        await refused(t, testKey, 'postcards', card.id, { event: 'rejected' }, /mailed already/);
        t.is(
          (await simulate(t, testKey, 'postcards', card.id, { event: 'returned_to_sender' })).tracking_events.length,
          5,
          'made once',
        );

        piece = await simulate(t, testKey, 'letters', abroad.id, { event: 'international_exit' });
        t.deepEqual(names(piece.tracking_events), ['Mailed', 'In Transit', 'International Exit']);
        t.is(piece.tracking_events[2].location, null);
        await refused(
          t,
          testKey,
          'letters',
          abroad.id,
          { event: 're-routed' },
          /Re-Routed cannot follow International Exit/,
        );
        await refused(t, testKey, 'letters', plain.id, { event: 'international_exit' }, /addressed outside the US/);

        piece = await simulate(t, testKey, 'letters', certified.id, {
          event: 'pickup_available',
          details: { event: 'notice_left', description: 'Notice left at the door' },
        });
        t.deepEqual(names(piece.tracking_events), [
          'Mailed',
          'In Transit',
          'In Local Area',
          'Processed for Delivery',
          'Pickup Available',
        ]);
        t.like(piece.tracking_events[4], {
          type: 'certified',
          simulated: true,
          details: { event: 'notice_left', description: 'Notice left at the door', action_required: true },
        });
        const ran = printpost(s.engine.databaseUrl, [
          'simulate',
          certified.id,
          '--event',
          'issue',
          '--details',
          '{"event":"package_held"}',
        ]);
        t.is(ran.status, 0, ran.stderr);
        t.deepEqual(
          ran.stdout
            .trim()
            .split('\n')
            .map((l) => l.split('\t')[1])
            .slice(-1),
          ['Issue'],
        );
        t.like((await get(testKey, 'letters', certified.id)).tracking_events[5], {
          type: 'certified',
          details: { event: 'package_held' },
        });
        await refused(t, testKey, 'letters', plain.id, { event: 'pickup_available' }, /certified letters only/);
        await refused(
          t,
          testKey,
          'letters',
          plain.id,
          { event: 'issue', details: { event: 'other' } },
          /certified letters only/,
        );
        await refused(
          t,
          testKey,
          'postcards',
          spoiled.id,
          { event: 'issue' },
          /^event must be one of \[re-routed, returned_to_sender, international_exit, rejected\]$/,
        );

        // a return envelope comes back once its letter is delivered
        await refused(
          t,
          testKey,
          'letters',
          plain.id,
          { event: 'return_envelope.in_transit' },
          /without a return envelope/,
        );
        await refused(
          t,
          testKey,
          'letters',
          envelope.id,
          { through: 'mailed', event: 'return_envelope.in_transit' },
          /once its letter is delivered/,
        );
        piece = await simulate(t, testKey, 'letters', envelope.id, { event: 'return_envelope.returned_to_sender' });
        t.deepEqual(names(piece.tracking_events), [
          'Mailed',
          'In Transit',
          'In Local Area',
          'Processed for Delivery',
          'Delivered',
        ]);
        t.deepEqual(names(piece.return_envelope_tracking_events), ['In Transit', 'Returned to Sender']);
        t.true(
          (piece.return_envelope_tracking_events as Tracked[]).every(
            (e) => e.simulated === true && e.type === 'normal',
          ),
        );
        await refused(
          t,
          testKey,
          'letters',
          envelope.id,
          { event: 'return_envelope.in_local_area' },
          /cannot follow Returned to Sender/,
        );

        // a rejection: only before it is mailed, marked simulated, and nothing is scanned after it
        piece = await simulate(t, testKey, 'postcards', spoiled.id, {
          event: 'rejected',
          reason: 'Bleed missing on the back',
        });
        t.like(piece, {
          rejection: { reason: 'Bleed missing on the back', simulated: true },
          production: { simulated: true },
        });
        t.deepEqual(piece.tracking_events, []);
        await refused(t, testKey, 'postcards', spoiled.id, { through: 'mailed' }, /rejected by the print room/);
        await refused(t, testKey, 'postcards', card.id, { reason: 'x' }, /reason goes with event rejected/);

        const delivered = eventsOf(await receiver.waitFor(8));
        t.deepEqual(
          delivered.map((e) => `${e.event_type.id} ${e.reference_id}`).sort(),
          [
            `postcard.re-routed ${card.id}`,
            `postcard.returned_to_sender ${card.id}`,
            `postcard.rejected ${spoiled.id}`,
            `letter.international_exit ${abroad.id}`,
            `letter.certified.pickup_available ${certified.id}`,
            `letter.certified.issue ${certified.id}`,
            `letter.return_envelope.in_transit ${envelope.id}`,
            `letter.return_envelope.returned_to_sender ${envelope.id}`,
          ].sort(),
        );
        t.true(
          delivered.every((e) => e.body.production?.simulated === true),
          'each body says it was simulated',
        );
        t.like(delivered.find((e) => e.event_type.id === 'postcard.rejected')?.body, {
          rejection: { simulated: true },
        });

        // live keys are refused, as for the normal life
        const real = await created(live, 'postcards', postcard());
        await refused(t, live, 'postcards', real.id, { event: 're-routed' }, /test pieces/);
        await refused(t, live, 'postcards', real.id, { event: 'rejected' }, /test pieces/);
        t.is(printpost(s.engine.databaseUrl, ['simulate', real.id, '--event', 'rejected']).status, 1);
        t.is((await get(live, 'postcards', real.id)).rejection, undefined);
      } finally {
        await receiver.close();
      }
    },
  );
