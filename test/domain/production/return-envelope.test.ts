// A letter's return envelope, through a real engine with its workers on each database: it comes into
// being with its letter (`letter.return_envelope.created`, in test mode too), and once the letter is
// in production, scans of the envelope coming back (an inbox record with `return_envelope: true`, or
// `printpost track --return-envelope`) become its own tracking events, apart from the letter's, each
// with its `letter.return_envelope.*` webhook event.
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { DATABASES } from '../../helpers/matrix';
import { startReceiver } from '../../helpers/receiver';
import { letter } from '../../helpers/mail';
import { dropRecord, liveAccount, printpost, ticketOf, until } from './production-helpers';
import { created, enginePerDatabase, eventsOf, get, hook, type Tracked } from './lifecycle-helpers';

const engines = enginePerDatabase();
test.after.always(() => engines.close());

const withEnvelope = () => letter({ return_envelope: true, perforated_page: 1 });
const envelopeEvents = (piece: Record<string, unknown>) => (piece.return_envelope_tracking_events ?? []) as Tracked[];
const count = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')).length : 0);

for (const db of DATABASES)
  test.serial(`${db}: a return envelope is created with its letter and tracked on its way back`, async (t) => {
    t.timeout(240_000);
    const s = await engines.setupFor(db);
    const { live, test: testKey } = await liveAccount(s.engine);
    const receiver = await startReceiver();
    try {
      const types = ['created', 'in_transit', 'returned_to_sender'].map((e) => `letter.return_envelope.${e}`);
      await hook(live, receiver.url, [...types, 'letter.in_transit']);
      await hook(testKey, receiver.url, types);
      const envelope = await created(live, 'letters', withEnvelope());
      const plain = await created(live, 'letters', letter());
      const sandbox = await created(testKey, 'letters', withEnvelope());

      const births = eventsOf(await receiver.waitFor(2)).filter((e) => e.event_type.id.endsWith('.created'));
      t.deepEqual(births.map((e) => e.reference_id).sort(), [envelope.id, sandbox.id].sort(), 'one per envelope');
      for (const e of births)
        t.like(e, {
          object: 'event',
          event_type: { id: 'letter.return_envelope.created', enabled_for_test: true, resource: 'letters' },
          body: { return_envelope: true },
        });

      const { ticket } = await ticketOf(s.outbox, envelope.id);
      t.is(ticket.return_envelope, true, 'the print room is told to insert it');
      await ticketOf(s.outbox, plain.id);

      const at = (hours: number) => new Date(Date.parse('2024-05-10T15:00:00Z') + hours * 3_600_000).toISOString();
      const scan = { piece_id: envelope.id, name: 'In Transit', location: '94107', time: at(30) };
      dropRecord(s.inbox, 'a-envelope', { ...scan, return_envelope: true });
      dropRecord(s.inbox, 'b-letter', { ...scan, time: at(2) });
      dropRecord(s.inbox, 'c-no-envelope', { ...scan, piece_id: plain.id, return_envelope: true });
      dropRecord(s.inbox, 'd-delivered', { ...scan, name: 'Delivered', return_envelope: true });
      dropRecord(s.inbox, 'e-not-boolean', { ...scan, return_envelope: 'yes' });
      const rejected = path.join(s.inbox, 'rejected');
      await until('every record settled', () =>
        count(path.join(s.inbox, 'done')) === 2 && count(rejected) === 3 ? true : undefined,
      );
      const reason = (name: string) => fs.readFileSync(path.join(rejected, `${name}.reason.txt`), 'utf8');
      t.regex(reason('c-no-envelope'), /without a return envelope/);
      t.regex(reason('d-delivered'), /Delivered is not a tracking event of a return envelope/);
      t.regex(reason('e-not-boolean'), /return_envelope must be true or false/);

      const tracked = await get(live, 'letters', envelope.id);
      t.deepEqual(
        tracked.tracking_events.map((e) => [e.name, e.time]),
        [['In Transit', at(2)]],
        "the letter's own scan stays the letter's",
      );
      t.like(envelopeEvents(tracked), [
        {
          name: 'In Transit',
          location: '94107',
          time: at(30),
          type: 'normal',
          details: null,
          object: 'tracking_event',
        },
      ]);
      t.regex(envelopeEvents(tracked)[0].id, /^evnt_[0-9a-f]{24}$/);
      t.not(envelopeEvents(tracked)[0].id, tracked.tracking_events[0].id, 'the same scan of another piece');
      t.is((await get(live, 'letters', plain.id)).return_envelope_tracking_events, undefined);

      const ran = printpost(s.engine.databaseUrl, [
        ...['track', envelope.id, 'Returned to Sender', '--return-envelope'],
        ...['--location', '94105', '--time', at(20)],
      ]);
      t.is(ran.status, 0, ran.stderr);
      t.regex(ran.stdout, new RegExp(`^evnt_[0-9a-f]+\\tReturned to Sender\\t${at(20)}\\t94105\\treturn envelope\\n$`));
      const again = printpost(s.engine.databaseUrl, [
        ...['track', envelope.id, 'returned to sender', '--return-envelope'],
        ...['--location', '94105', '--time', at(20)],
      ]);
      t.regex(again.stdout, /\(already recorded\)/);
      const refused = printpost(s.engine.databaseUrl, ['track', sandbox.id, 'In Transit', '--return-envelope']);
      t.is(refused.status, 1);
      t.regex(refused.stderr, /test pieces get no tracking events/);

      t.deepEqual(
        envelopeEvents(await get(live, 'letters', envelope.id)).map((e) => e.name),
        ['Returned to Sender', 'In Transit'],
        'in time order',
      );
      const delivered = eventsOf(await receiver.waitFor(5)).filter((e) => !e.event_type.id.endsWith('.created'));
      // the event ids go in the message: a repeated id is a delivery made twice, a new id an event emitted twice
      t.deepEqual(
        delivered.map((e) => `${e.event_type.id} ${e.reference_id}`).sort(),
        [
          `letter.in_transit ${envelope.id}`,
          `letter.return_envelope.in_transit ${envelope.id}`,
          `letter.return_envelope.returned_to_sender ${envelope.id}`,
        ],
        delivered.map((e) => `${e.event_type.id} ${e.id}`).join(', '),
      );
      const inTransit = delivered.find((e) => e.event_type.id === 'letter.return_envelope.in_transit');
      t.like(inTransit, {
        object: 'event',
        event_type: { enabled_for_test: false, resource: 'letters', object: 'event_type' },
        body: { id: envelope.id, object: 'letter' },
      });
      t.regex(inTransit?.id ?? '', /^evt_/);
      t.like(envelopeEvents(inTransit?.body ?? {}), [{ name: 'In Transit' }], 'the body shows the scan');
      const listed = await live<{ data: unknown[] }>('GET', '/v1/events?event_type=letter.return_envelope.in_transit');
      t.is(listed.body.data.length, 1);
      await new Promise((r) => setTimeout(r, 500));
      t.is(receiver.received.length, 5, 'the repeated scan emitted nothing');
    } finally {
      await receiver.close();
    }
  });
