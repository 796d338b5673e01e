// A piece's life after rendering, through a real engine with its workers (Chromium) on each database:
// a live piece past its cancellation window goes to production once (its ticket and PDF in the
// outbox) and can no longer be cancelled; scan records in the inbox and `printpost track` become its
// tracking events, in time order, with their webhook events; a test piece gets none of it unless
// simulated, and simulation is refused to live keys.
import fs from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { DATABASES } from '../../helpers/matrix';
import { USPS_ENV } from '../../helpers/engine';
import { startReceiver } from '../../helpers/receiver';
import { download } from '../../print/helpers';
import { letter, postcard } from '../../helpers/mail';
import { overlayPiece } from '../../../engine/print/overlay/types';
import { trackingNumberOf } from '../../../engine/print/overlay/tracking-number';
import { dropRecord, liveAccount, printpost, stagedFiles, ticketFiles, ticketOf, until } from './production-helpers';
import { created, enginePerDatabase, eventsOf, get, hook, rendered, type Piece, type Setup } from './lifecycle-helpers';

// One engine (and one browser) at a time: each database's engine is closed before the next starts.
const engines = enginePerDatabase();
test.after.always(() => engines.close());

type Body = (t: ExecutionContext, setup: Setup) => Promise<void>;
const cases: [string, Body][] = [];
const scenario = (title: string, body: Body) => cases.push([title, body]);

scenario(
  'a live piece past its window is produced once, its PDF and ticket in the outbox, and cannot be cancelled',
  async (t, s) => {
    const { live, test: testKey } = await liveAccount(s.engine);
    const card = await created(live, 'postcards', postcard());
    const certified = await created(live, 'letters', letter({ extra_service: 'certified' }));
    const sandbox = await created(testKey, 'postcards', postcard());

    const { ticket, file } = await ticketOf(s.outbox, card.id);
    const produced = await get(live, 'postcards', card.id);
    t.like(produced, { status: 'rendered', production: { id: ticket.ticket, simulated: false } });
    t.regex(ticket.ticket, /^pjob_[0-9a-f]{16}$/);
    const imb = produced.imb as { tracking_code: string; routing_code: string };
    t.is(imb.tracking_code.slice(0, 11), `00300${USPS_ENV.USPS_MAILER_ID}`, 'the configured Mailer ID');
    t.like(ticket, {
      piece_id: card.id,
      kind: 'postcards',
      object: 'postcard',
      size: '4x6',
      mail_type: 'usps_first_class',
      extra_service: null,
      tracking_number: null,
      imb,
      pdf: `${card.id}.pdf`,
      date_produced: produced.production?.date_created,
    });
    t.deepEqual(ticket.to, produced.to);
    t.is(
      path.basename(path.dirname(file)),
      String(produced.production?.date_created).slice(0, 10),
      'dated by production, UTC',
    );
    const pdf = fs.readFileSync(path.join(path.dirname(file), ticket.pdf));
    t.deepEqual(pdf, (await download(produced.url)).bytes, 'the PDF the renderer stored');
    t.deepEqual(stagedFiles(s.outbox, card.id), [], 'nothing left staged');

    const cancel = await live<{ error: { code: string } }>('DELETE', `/v1/postcards/${card.id}`);
    t.is(cancel.status, 422);
    t.is(cancel.body.error.code, 'not_deletable');

    const { ticket: letterTicket } = await ticketOf(s.outbox, certified.id);
    const letterNow = await get(live, 'letters', certified.id);
    t.like(letterTicket, { kind: 'letters', extra_service: 'certified', color: false });
    t.is(letterTicket.tracking_number, trackingNumberOf(overlayPiece(letterNow)).value);

    // the test piece rendered as long ago as the live ones went to production, and went nowhere
    const still = await rendered(testKey, 'postcards', sandbox.id);
    t.is(still.production, undefined);
    t.deepEqual(still.tracking_events, []);
    t.deepEqual(ticketFiles(s.outbox, sandbox.id), []);
    t.is(ticketFiles(s.outbox, card.id).length, 1);
  },
);

scenario(
  'scan records in the inbox become tracking events in time order, with their webhook events; bad ones are set aside',
  async (t, s) => {
    const { live, test: testKey } = await liveAccount(s.engine);
    const receiver = await startReceiver();
    try {
      await hook(live, receiver.url, [
        'postcard.mailed',
        'postcard.in_transit',
        'postcard.delivered',
        'letter.certified.in_transit',
      ]);
      const card = await created(live, 'postcards', postcard());
      const certified = await created(live, 'letters', letter({ extra_service: 'certified' }));
      const registered = await created(live, 'letters', letter({ extra_service: 'registered' }));
      const sandbox = await created(testKey, 'postcards', postcard());
      await Promise.all([card, certified, registered].map((p) => ticketOf(s.outbox, p.id)));
      await rendered(testKey, 'postcards', sandbox.id);

      const t0 = Date.parse('2024-05-01T15:00:00Z');
      const at = (hours: number) => new Date(t0 + hours * 3_600_000).toISOString();
      // out of order on purpose: the piece keeps them in time order
      dropRecord(s.inbox, `a-${card.id}`, { piece_id: card.id, name: 'Delivered', location: '94107', time: at(48) });
      dropRecord(s.inbox, `b-${card.id}`, { piece_id: card.id, name: 'in transit', location: '94105', time: at(20) });
      dropRecord(s.inbox, `c-${card.id}`, { piece_id: card.id, name: 'Mailed', location: '94105', time: at(0) });
      dropRecord(s.inbox, `d-${certified.id}`, {
        piece_id: certified.id,
        name: 'In Transit',
        location: '94105',
        time: at(5),
      });
      dropRecord(s.inbox, 'e-broken', '{"piece_id": ');
      dropRecord(s.inbox, `f-${sandbox.id}`, { piece_id: sandbox.id, name: 'In Transit', location: '94105' });
      dropRecord(s.inbox, `g-${registered.id}`, { piece_id: registered.id, name: 'In Transit', location: '94105' });
      dropRecord(s.inbox, 'h-unknown-name', { piece_id: card.id, name: 'Lost at Sea', location: '94105' });
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
      dropRecord(s.inbox, 'i-future', { piece_id: card.id, name: 'Delivered', location: '94107', time: tomorrow });

      const done = path.join(s.inbox, 'done');
      const rejected = path.join(s.inbox, 'rejected');
      const count = (dir: string, ext: string) =>
        fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith(ext)).length : 0;
      await until('every record settled', () =>
        count(done, '.json') === 4 && count(rejected, '.json') === 5 ? true : undefined,
      );
      const reasons = fs
        .readdirSync(rejected)
        .filter((n) => n.endsWith('.reason.txt'))
        .map((n) => [n.slice(0, 1), fs.readFileSync(path.join(rejected, n), 'utf8')]);
      const reason = (prefix: string) => reasons.find(([p]) => p === prefix)?.[1] ?? '';
      t.regex(reason('e'), /not JSON/);
      t.regex(reason('f'), /test piece/);
      t.regex(reason('g'), /registered letters get no tracking events/);
      t.regex(reason('h'), /Lost at Sea is not a tracking event name/);
      t.regex(reason('i'), /is in the future/);
      t.deepEqual(
        fs.readdirSync(s.inbox).filter((n) => n.endsWith('.json')),
        [],
        'the inbox is emptied',
      );

      const tracked = await get(live, 'postcards', card.id);
      t.deepEqual(
        tracked.tracking_events.map((e) => [e.name, e.location, e.time, e.type, e.details]),
        [
          ['Mailed', null, at(0), 'normal', null],
          ['In Transit', '94105', at(20), 'normal', null],
          ['Delivered', '94107', at(48), 'normal', null],
        ],
      );
      for (const e of tracked.tracking_events) {
        t.regex(e.id, /^evnt_[0-9a-f]+$/);
        t.like(e, { object: 'tracking_event' });
        t.false('simulated' in e);
      }
      const letterEvents = (await get(live, 'letters', certified.id)).tracking_events;
      t.like(letterEvents, [
        { type: 'certified', name: 'In Transit', details: { event: 'package_departed', action_required: false } },
      ]);
      t.deepEqual((await get(live, 'letters', registered.id)).tracking_events, []);
      t.deepEqual((await get(testKey, 'postcards', sandbox.id)).tracking_events, []);

      const delivered = eventsOf(await receiver.waitFor(4));
      t.deepEqual(
        delivered.map((e) => `${e.event_type.id} ${e.reference_id}`).sort(),
        [
          `letter.certified.in_transit ${certified.id}`,
          `postcard.delivered ${card.id}`,
          `postcard.in_transit ${card.id}`,
          `postcard.mailed ${card.id}`,
        ].sort(),
      );
      t.true(
        delivered.every((e) => !e.event_type.enabled_for_test),
        'tracking event types happen in live mode only',
      );
      const listed = await live<{ data: { reference_id: string }[] }>(
        'GET',
        '/v1/events?event_type=postcard.in_transit',
      );
      t.deepEqual(
        listed.body.data.map((e) => e.reference_id),
        [card.id],
      );

      // the same scan again (a producer's retry) is recognized: no second event
      dropRecord(s.inbox, `i-${card.id}`, { piece_id: card.id, name: 'Delivered', location: '94107', time: at(48) });
      await until('the repeat settled', () => (count(done, '.json') === 5 ? true : undefined));
      t.is((await get(live, 'postcards', card.id)).tracking_events.length, 3);
      await new Promise((r) => setTimeout(r, 500));
      t.is(receiver.received.length, 4);
    } finally {
      await receiver.close();
    }
  },
);

scenario('printpost track records a scan of a live piece and refuses a test piece', async (t, s) => {
  const { live, test: testKey } = await liveAccount(s.engine);
  const card = await created(live, 'postcards', postcard());
  const sandbox = await created(testKey, 'postcards', postcard());
  await ticketOf(s.outbox, card.id);
  await rendered(testKey, 'postcards', sandbox.id);

  const ran = printpost(s.engine.databaseUrl, [
    'track',
    card.id,
    'In Local Area',
    '--location',
    '94107',
    '--time',
    '2024-05-02T10:00:00Z',
  ]);
  t.is(ran.status, 0, ran.stderr);
  t.regex(ran.stdout, /^evnt_[0-9a-f]+\tIn Local Area\t2024-05-02T10:00:00.000Z\t94107\n$/);
  const piece = await get(live, 'postcards', card.id);
  t.like(piece.tracking_events, [{ name: 'In Local Area', location: '94107', type: 'normal', details: null }]);
  const events = await live<{ data: { event_type: { id: string } }[] }>(
    'GET',
    `/v1/events?event_type=postcard.in_local_area`,
  );
  t.is(events.body.data.length, 1);

  const refused = printpost(s.engine.databaseUrl, ['track', sandbox.id, 'In Transit']);
  t.is(refused.status, 1);
  t.regex(refused.stderr, /test pieces get no tracking events/);
  t.is(printpost(s.engine.databaseUrl, ['track', card.id]).status, 2, 'a usage error');
});

scenario(
  'simulate moves a test piece through production and tracking with simulated events; live keys are refused',
  async (t, s) => {
    const { live, test: testKey } = await liveAccount(s.engine);
    const receiver = await startReceiver();
    try {
      await hook(testKey, receiver.url, ['postcard.mailed', 'postcard.in_transit', 'postcard.delivered']);
      const sandbox = await created(testKey, 'postcards', postcard());
      await rendered(testKey, 'postcards', sandbox.id);

      const reply = await testKey<Piece>('POST', `/v1/postcards/${sandbox.id}/simulate`, {
        json: { through: 'in_transit' },
      });
      t.is(reply.status, 200, JSON.stringify(reply.body));
      t.like(reply.body, { id: sandbox.id, production: { simulated: true } });
      t.deepEqual(
        reply.body.tracking_events.map((e) => [e.name, e.simulated, e.type]),
        [
          ['Mailed', true, 'normal'],
          ['In Transit', true, 'normal'],
        ],
      );
      const first = eventsOf(await receiver.waitFor(2));
      t.deepEqual(first.map((e) => e.event_type.id).sort(), ['postcard.in_transit', 'postcard.mailed']);
      t.true(
        first.every((e) => e.body.production?.simulated === true),
        'the event body says it was simulated',
      );

      const ran = printpost(s.engine.databaseUrl, ['simulate', sandbox.id]);
      t.is(ran.status, 0, ran.stderr);
      t.deepEqual(
        ran.stdout
          .trim()
          .split('\n')
          .map((l) => l.split('\t')[1]),
        ['Mailed', 'In Transit', 'In Local Area', 'Processed for Delivery', 'Delivered'],
      );
      const after = await get(testKey, 'postcards', sandbox.id);
      t.true(after.tracking_events.every((e) => e.simulated === true));
      t.is(after.tracking_events.length, 5);
      await receiver.waitFor(3);
      t.deepEqual(ticketFiles(s.outbox, sandbox.id), [], 'nothing printed');
      t.is((await testKey('DELETE', `/v1/postcards/${sandbox.id}`)).status, 422, 'in production: not cancellable');

      const card = await created(live, 'postcards', postcard());
      await ticketOf(s.outbox, card.id);
      const refused = await live<{ error: { message: string } }>('POST', `/v1/postcards/${card.id}/simulate`, {
        json: {},
      });
      t.is(refused.status, 422);
      t.regex(refused.body.error.message, /test pieces/);
      t.is(printpost(s.engine.databaseUrl, ['simulate', card.id]).status, 1);
      t.deepEqual((await get(live, 'postcards', card.id)).tracking_events, []);
    } finally {
      await receiver.close();
    }
  },
);

for (const db of DATABASES)
  for (const [title, body] of cases)
    test.serial(`${db}: ${title}`, async (t) => {
      t.timeout(240_000);
      await body(t, await engines.setupFor(db));
    });
