// What a print room receives and sends back, through a real engine with its workers on each database:
// a live piece of every kind that reaches production gets a job ticket valid against the published
// schema (docs/job-ticket.schema.json) with its finishing instructions right (pages and sheets as the
// PDF beside it has them), the day's manifest has one line per piece handed off, and a piece the
// print room rejects (a reply file, printpost reject) records why, emits its `*.rejected` event and
// is never tracked as mailed.
import fs from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { DATABASES } from '../../helpers/matrix';
import { startReceiver } from '../../helpers/receiver';
import { readPdf } from '../../helpers/pdf-read';
import { ticketSchemaErrors } from '../../helpers/ticket-schema';
import { check, daysAhead, letter, postcard, selfMailer, snapPack } from '../../helpers/mail';
import { MANIFEST_HEADER } from '../../../engine/domain/production/manifest';
import { liveAccount, printpost, ticketOf, until, type Call, type Ticket } from './production-helpers';
import { created, enginePerDatabase, eventsOf, get, hook, rendered, type Setup } from './lifecycle-helpers';

const engines = enginePerDatabase();
test.after.always(() => engines.close());

type Body = (t: ExecutionContext, setup: Setup) => Promise<void>;
const cases: [string, Body][] = [];
const scenario = (title: string, body: Body) => cases.push([title, body]);

const TWO_PAGES = '<html><body><p style="break-after: page">One {{name}}</p><p>Two</p></body></html>';

/** A live bank account verified with its recorded micro-deposits (read with printpost deposits). */
async function liveBankAccount(live: Call, databaseUrl: string): Promise<string> {
  const account = await live<{ id: string }>('POST', '/v1/bank_accounts', {
    json: { routing_number: '322271627', account_number: '123456789', account_type: 'company', signatory: 'Jane Doe' },
  });
  const read = printpost(databaseUrl, ['deposits', account.body.id]);
  if (read.status !== 0) throw new Error(read.stderr);
  const amounts = read.stdout.trim().split(' ').map(Number);
  const verified = await live<{ verified: boolean }>('POST', `/v1/bank_accounts/${account.body.id}/verify`, {
    json: { amounts },
  });
  if (!verified.body.verified) throw new Error(JSON.stringify(verified.body));
  return account.body.id;
}

/** The day's manifest as rows of its columns, header checked. */
function manifestRows(folder: string): Record<string, string>[] {
  const [header, ...lines] = fs.readFileSync(path.join(folder, 'manifest.csv'), 'utf8').trimEnd().split('\n');
  const columns = header.split(',');
  if (header !== MANIFEST_HEADER) throw new Error(`manifest header ${header}`);
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [columns[i], v])));
}

scenario(
  'a ticket of every kind is valid against the published schema, with its finishing instructions, and the manifest lists each piece once',
  async (t, s) => {
    const { live } = await liveAccount(s.engine);
    const bank = await liveBankAccount(live, s.engine.databaseUrl);
    const pieces: [string, string, Record<string, unknown>, Partial<Ticket>][] = [
      ['postcard', 'postcards', postcard(), { sides: 'duplex', color: true, sheets: 1, pages: 2 }],
      ['letter', 'letters', letter(), { sides: 'duplex', color: false, pages: 1, sheets: 1, perforated_page: null }],
      [
        'certified letter',
        'letters',
        letter({ extra_service: 'certified', color: true }),
        // cover sheet and its blank back, then the page
        { extra_service: 'certified', color: true, pages: 3, sheets: 2, sides: 'duplex' },
      ],
      [
        'registered letter, one side',
        'letters',
        letter({ extra_service: 'registered', double_sided: false }),
        { extra_service: 'registered', pages: 2, sheets: 2, sides: 'simplex', double_sided: false },
      ],
      [
        'letter with a return envelope',
        'letters',
        letter({
          file: TWO_PAGES,
          return_envelope: true,
          perforated_page: 2,
          address_placement: 'insert_blank_page',
        }),
        {
          return_envelope: true,
          address_placement: 'insert_blank_page',
          // the address page and its blank back come first: the customer's page 2 is the PDF's 4th
          perforated_page: 4,
          pages: 4,
          sheets: 2,
          custom_envelope: null,
        },
      ],
      ['self mailer', 'self_mailers', selfMailer(), { sides: 'duplex', color: true, pages: 2, sheets: 1 }],
      ['snap pack', 'snap_packs', snapPack(), { sides: 'duplex', color: false, pages: 2, sheets: 1 }],
      ['check', 'checks', check(bank), { sides: 'simplex', color: false, pages: 1, sheets: 1 }],
    ];
    const made = await Promise.all(pieces.map(([, kind, body]) => created(live, kind, body)));
    const tickets = await Promise.all(made.map((p) => ticketOf(s.outbox, p.id, 180_000)));
    for (const [i, [what, kind, , expected]] of pieces.entries()) {
      const { ticket, file } = tickets[i];
      t.deepEqual(ticketSchemaErrors(ticket), [], `${what}: valid against docs/job-ticket.schema.json`);
      t.like(ticket, { kind, inserts: [], mail_type: 'usps_first_class', ...expected }, what);
      const pdf = await readPdf(fs.readFileSync(path.join(path.dirname(file), ticket.pdf)));
      t.is(ticket.pages, pdf.pageCount, `${what}: pages as the PDF has them`);
      t.is(ticket.sheets, ticket.sides === 'duplex' ? Math.ceil(pdf.pageCount / 2) : pdf.pageCount, what);
    }

    // every piece handed off is on its day's manifest once, as its ticket says
    const byDay = new Map<string, Ticket[]>();
    for (const { ticket, file } of tickets)
      byDay.set(path.dirname(file), [...(byDay.get(path.dirname(file)) ?? []), ticket]);
    for (const [folder, ofDay] of byDay) {
      const rows = manifestRows(folder);
      for (const ticket of ofDay) {
        const lines = rows.filter((r) => r.piece_id === ticket.piece_id);
        t.is(lines.length, 1, `${ticket.piece_id} once on the manifest`);
        t.deepEqual(lines[0], {
          ticket: ticket.ticket,
          piece_id: ticket.piece_id,
          kind: String(ticket.kind),
          pdf: ticket.pdf,
          sheets: String(ticket.sheets),
          mail_type: String(ticket.mail_type),
          date_produced: String(ticket.date_produced),
        });
      }
      t.is(new Set(rows.map((r) => r.piece_id)).size, rows.length, 'no piece twice');
    }
  },
);

scenario(
  'a piece the print room rejects (a reply file, printpost reject) records why, emits its rejected event, and is not tracked',
  async (t, s) => {
    const { live, test: testKey } = await liveAccount(s.engine);
    const receiver = await startReceiver();
    try {
      await hook(live, receiver.url, ['postcard.rejected', 'letter.rejected']);
      const card = await created(live, 'postcards', postcard());
      const plain = await created(live, 'letters', letter());
      const sandbox = await created(testKey, 'postcards', postcard());
      await Promise.all([card, plain].map((p) => ticketOf(s.outbox, p.id, 180_000)));
      await rendered(testKey, 'postcards', sandbox.id);
      t.false('rejection' in (await get(live, 'postcards', card.id)), 'absent until rejected');

      const replies = path.join(s.outbox, 'replies');
      fs.mkdirSync(replies, { recursive: true });
      const drop = (name: string, reply: unknown) => {
        fs.writeFileSync(path.join(replies, `${name}.tmp`), JSON.stringify(reply));
        fs.renameSync(path.join(replies, `${name}.tmp`), path.join(replies, `${name}.json`));
      };
      drop(`a-${card.id}`, { piece_id: card.id, action: 'reject', reason: 'PDF bleed missing on the back' });
      drop(`b-${sandbox.id}`, { piece_id: sandbox.id, action: 'reject', reason: 'no' });
      drop('c-no-reason', { piece_id: card.id, action: 'reject' });
      const count = (dir: string) =>
        fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')).length : 0;
      await until('the replies settled', () =>
        count(path.join(replies, 'done')) === 1 && count(path.join(replies, 'rejected')) === 2 ? true : undefined,
      );
      const reasons = fs
        .readdirSync(path.join(replies, 'rejected'))
        .filter((n) => n.endsWith('.reason.txt'))
        .map((n) => fs.readFileSync(path.join(replies, 'rejected', n), 'utf8'))
        .join('');
      t.regex(reasons, /test piece/);
      t.regex(reasons, /reason is required/);

      const rejected = await get(live, 'postcards', card.id);
      t.like(rejected, { status: 'rendered', rejection: { reason: 'PDF bleed missing on the back' } });
      t.truthy(rejected.production, 'it stays in production');
      // the same reply again (a print room's retry): taken, and nothing changes
      drop(`d-${card.id}`, { piece_id: card.id, action: 'reject', reason: 'a second look' });
      await until('the repeat settled', () => (count(path.join(replies, 'done')) === 2 ? true : undefined));
      t.like(await get(live, 'postcards', card.id), { rejection: { reason: 'PDF bleed missing on the back' } });
      const cardEvents = await live<{ data: { reference_id: string }[] }>(
        'GET',
        '/v1/events?event_type=postcard.rejected',
      );
      t.deepEqual(
        cardEvents.body.data.map((e) => e.reference_id),
        [card.id],
        'recorded once',
      );

      const ran = printpost(s.engine.databaseUrl, ['reject', plain.id, '--reason', 'torn in the inserter']);
      t.is(ran.status, 0, ran.stderr);
      t.regex(ran.stdout, new RegExp(`^${plain.id}\\t\\S+\\ttorn in the inserter\\n$`));
      const again = printpost(s.engine.databaseUrl, ['reject', plain.id, '--reason', 'something else']);
      t.is(again.status, 0, again.stderr);
      t.regex(again.stdout, /torn in the inserter\t\(already rejected\)/, 'the first reason is kept');
      t.like(await get(live, 'letters', plain.id), { rejection: { reason: 'torn in the inserter' } });
      t.is(printpost(s.engine.databaseUrl, ['reject', sandbox.id, '--reason', 'x']).status, 1, 'test pieces refused');
      t.is(printpost(s.engine.databaseUrl, ['reject', plain.id]).status, 2, 'a reason is required');
      const later = await created(live, 'postcards', postcard({ send_date: daysAhead(3) }));
      const early = printpost(s.engine.databaseUrl, ['reject', later.id, '--reason', 'x']);
      t.is(early.status, 1);
      t.regex(early.stderr, /not in production/);
      t.is((await live('DELETE', `/v1/postcards/${later.id}`)).status, 200);
      const gone = printpost(s.engine.databaseUrl, ['reject', later.id, '--reason', 'x']);
      t.is(gone.status, 1);
      t.regex(gone.stderr, /cancelled/);

      // recorded once each, and delivered
      const listed = await live<{ data: { reference_id: string; body: { rejection?: unknown } }[] }>(
        'GET',
        '/v1/events?event_type=letter.rejected',
      );
      t.deepEqual(
        listed.body.data.map((e) => e.reference_id),
        [plain.id],
      );
      t.like(listed.body.data[0].body, { rejection: { reason: 'torn in the inserter' } });
      const delivered = eventsOf(await receiver.waitFor(2));
      t.deepEqual(delivered.map((e) => `${e.event_type.id} ${e.reference_id}`).sort(), [
        `letter.rejected ${plain.id}`,
        `postcard.rejected ${card.id}`,
      ]);

      // never mailed: a scan of it is refused
      const scan = printpost(s.engine.databaseUrl, ['track', card.id, 'Mailed']);
      t.is(scan.status, 1);
      t.regex(scan.stderr, /rejected by the print room/);
      t.deepEqual((await get(live, 'postcards', card.id)).tracking_events, []);
      await new Promise((r) => setTimeout(r, 500));
      t.is(receiver.received.length, 2, 'no second rejected event');
    } finally {
      await receiver.close();
    }
  },
);

for (const db of DATABASES)
  for (const [title, body] of cases)
    test.serial(`${db}: ${title}`, async (t) => {
      t.timeout(300_000);
      await body(t, await engines.setupFor(db));
    });
