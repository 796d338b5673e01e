// Test pieces are visibly not mailable and live ones carry what their envelope needs, through a real
// engine with its workers on each database, the PDFs read back: a test piece of every kind says
// SAMPLE (a check VOID, its MICR line with no routing or account digits), a live one says neither and
// its check prints the real MICR line; the job ticket of a live letter and check carries the permit
// and the indicia as the postcards print it, for the print room's envelope.
import test, { type ExecutionContext } from 'ava';
import { DATABASES } from '../../helpers/matrix';
import { USPS_ENV } from '../../helpers/engine';
import { check, letter, postcard, selfMailer, snapPack, verifiedBankAccount } from '../../helpers/mail';
import { readPdf } from '../../helpers/pdf-read';
import { ticketSchemaErrors } from '../../helpers/ticket-schema';
import { download } from '../../print/helpers';
import { liveAccount, printpost, ticketOf, type Call } from './production-helpers';
import { created, enginePerDatabase, rendered, type Piece } from './lifecycle-helpers';

const engines = enginePerDatabase();
test.after.always(() => engines.close());

const ROUTING = '322271627';
const ACCOUNT = '123456789';

/** A live bank account verified with its recorded micro-deposits (read with printpost deposits). */
async function liveBankAccount(live: Call, databaseUrl: string): Promise<string> {
  const account = await live<{ id: string }>('POST', '/v1/bank_accounts', {
    json: { routing_number: ROUTING, account_number: ACCOUNT, account_type: 'company', signatory: 'Jane Doe' },
  });
  const read = printpost(databaseUrl, ['deposits', account.body.id]);
  if (read.status !== 0) throw new Error(read.stderr);
  const amounts = read.stdout.trim().split(' ').map(Number);
  await live('POST', `/v1/bank_accounts/${account.body.id}/verify`, { json: { amounts } });
  return account.body.id;
}

/** Every text of the piece's PDF, pages in order, items joined by spaces. */
async function textOf(piece: Piece): Promise<string> {
  const pdf = await readPdf((await download(String(piece.url))).bytes);
  return pdf.pages.map((page) => page.text.map((item) => item.str).join(' ')).join('\n');
}

const INDICIA = {
  mail_class: 'usps_first_class',
  international: false,
  permit_number: USPS_ENV.USPS_PERMIT_NUMBER,
  permit_city: 'SAN FRANCISCO',
  permit_state: 'CA',
  lines: ['FIRST-CLASS MAIL', 'U.S. POSTAGE PAID', 'SAN FRANCISCO, CA', `PERMIT NO. ${USPS_ENV.USPS_PERMIT_NUMBER}`],
};

async function scenario(t: ExecutionContext, db: (typeof DATABASES)[number]) {
  t.timeout(600_000);
  const s = await engines.setupFor(db);
  const { live, test: testKey } = await liveAccount(s.engine);
  const banks = { live: await liveBankAccount(live, s.engine.databaseUrl), test: await verifiedBankAccount(testKey) };
  const kinds: [string, string, (mode: 'live' | 'test') => Record<string, unknown>][] = [
    ['postcard', 'postcards', () => postcard()],
    ['letter', 'letters', () => letter()],
    ['certified letter', 'letters', () => letter({ extra_service: 'certified' })],
    ['registered letter', 'letters', () => letter({ extra_service: 'registered' })],
    ['self mailer', 'self_mailers', () => selfMailer()],
    ['snap pack', 'snap_packs', () => snapPack()],
    ['check', 'checks', (mode) => check(banks[mode], { memo: 'rent' })],
  ];
  const made = await Promise.all(
    kinds.flatMap(([, kind, body]) => [created(testKey, kind, body('test')), created(live, kind, body('live'))]),
  );
  for (const [i, [what, kind]] of kinds.entries()) {
    const [sample, real] = [made[2 * i], made[2 * i + 1]];
    const sampleText = await textOf(await rendered(testKey, kind, sample.id));
    const liveText = await textOf(await rendered(live, kind, real.id));
    t.regex(sampleText, kind === 'checks' ? /VOID/ : /SAMPLE/, `a test ${what} says SAMPLE (a check VOID)`);
    t.notRegex(liveText, /SAMPLE|NOT MAILABLE|VOID/, `a live ${what} carries no sample mark`);
    if (kind === 'letters') t.regex(sampleText, /SAMPLE - NOT MAILABLE/, `a test ${what} says it is not mailable`);
    if (kind !== 'checks') continue;
    t.false(sampleText.includes(ROUTING), 'no routing number on a test check');
    t.false(sampleText.includes(ACCOUNT), 'no account number on a test check');
    t.regex(sampleText, /C\d+C\s+ADDDDDDDDDA\s+DDDDDDDDDC/, 'its MICR line masked, digit for digit');
    t.regex(liveText, new RegExp(`A${ROUTING}A\\s+${ACCOUNT}C`), 'a live check prints its MICR line');
  }

  // the print room's envelope: the permit and the indicia of a live letter and check, none for a card
  const liveOf = (what: string) => made[2 * kinds.findIndex(([w]) => w === what) + 1];
  for (const what of ['letter', 'certified letter', 'check']) {
    const { ticket } = await ticketOf(s.outbox, liveOf(what).id, 180_000);
    t.deepEqual(ticketSchemaErrors(ticket), [], `${what}: valid against docs/job-ticket.schema.json`);
    t.deepEqual(ticket.indicia, INDICIA, `${what}: the indicia its envelope prints`);
  }
  const { ticket: cardTicket } = await ticketOf(s.outbox, liveOf('postcard').id, 180_000);
  t.is(cardTicket.indicia, null, 'a postcard prints its own indicia');
}

for (const db of DATABASES) {
  test.serial(
    `${db}: test pieces of every kind are marked SAMPLE or VOID; live letters and checks carry their indicia`,
    (t) => scenario(t, db),
  );
}
