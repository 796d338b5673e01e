// Live mail needs the operator's USPS identity (USPS_* variables), through real engines with their
// workers sharing one database, on each database. Without it a live piece waits, unrendered, with its
// reason on the piece and in /health, and nothing reaches the outbox; an engine started with it takes
// the piece up. Every live barcode then carries the configured Mailer ID (decoded from the PDF's bars,
// equal to the piece's `imb` and to its ticket), serials stay unique across two engines rendering at
// once and across a restart, the indicia names the permit per mail class, a registered letter shows
// one tracking number in the API, its PDF and its ticket, and a PDF drawn under a Mailer ID no longer
// configured is drawn again before it is mailed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { DATABASES } from '../../helpers/matrix';
import { freshDatabase, startEngine, USPS_ENV, type TestEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { letter, pieceVendorErrors, postcard } from '../../helpers/mail';
import { readPdf, textIn, zoneBox, type PdfRead } from '../../helpers/pdf-read';
import { geometryOf } from '../../../engine/catalog/products';
import { download } from '../../print/helpers';
import { imbIn } from '../../print/overlay-fixtures';
import { liveAccount, ticketFiles, ticketOf, until, type Call } from './production-helpers';
import { created, get, rendered, type Piece } from './lifecycle-helpers';

type Imb = { tracking_code: string; routing_code: string };
const imbOf = (piece: Piece) => piece.imb as Imb;
const [, CARD_BACK] = geometryOf('postcards', '4x6').sides;

async function pdfOf(piece: Piece): Promise<PdfRead> {
  return readPdf((await download(piece.url)).bytes);
}

/** The piece once the print room has its ticket, with the ticket. */
async function produced(call: Call, outbox: string, kind: string, id: string) {
  const { ticket } = await ticketOf(outbox, id, 120_000);
  return { piece: await get(call, kind, id), ticket };
}

async function health(engine: TestEngine) {
  const reply = await fetch(`${engine.url}/health`);
  return ((await reply.json()) as { production: { ready: boolean; missing: string[]; reason?: string } }).production;
}

async function scenario(t: ExecutionContext, db: 'sqlite' | 'postgres') {
  t.timeout(600_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-usps-'));
  const outbox = path.join(dir, 'outbox');
  // one deployment: one asset store and one print room for every engine
  const env = { PRINT_OUTBOX: outbox, TRACKING_INBOX: path.join(dir, 'inbox'), ASSET_STORE: path.join(dir, 'assets') };
  // engines come and go on one database the test made, as restarts of one deployment do
  const database = await freshDatabase(db);
  const engines: TestEngine[] = [];
  const engine = async (identity: Record<string, string> | undefined) => {
    const started = await startEngine({ db, database: database.url, workers: true, env: { ...env, ...identity } });
    engines.push(started);
    return started;
  };
  const close = async (e: TestEngine) => {
    engines.splice(engines.indexOf(e), 1);
    await e.close();
  };
  t.teardown(async () => {
    for (const e of engines) await e.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // 1. no identity: the live piece waits with its reason, the test piece renders with sample marks
  const bare = await engine(undefined);
  const { keys } = await liveAccount(bare);
  let live = client(bare.url, keys.live);
  const testKey = client(bare.url, keys.test);
  const waiting = await health(bare);
  t.false(waiting.ready);
  t.deepEqual(waiting.missing, [
    'USPS_MAILER_ID',
    'USPS_CRID',
    'USPS_PERMIT_NUMBER',
    'USPS_PERMIT_CITY',
    'USPS_PERMIT_STATE',
  ]);
  const held = await created(live, 'postcards', postcard());
  const sample = await created(testKey, 'postcards', postcard());
  const heldNow = await until('the live piece to wait', async () => {
    const piece = await get(live, 'postcards', held.id);
    return piece.production_hold ? piece : undefined;
  });
  t.is(heldNow.status, 'processed');
  t.regex((heldNow.production_hold as { reason: string }).reason, /USPS_MAILER_ID, USPS_CRID.*restart/);
  t.is(heldNow.imb, undefined);
  t.deepEqual(
    pieceVendorErrors('GET', `/v1/postcards/${held.id}`, heldNow),
    [],
    'the extension keeps the vendor schema',
  );
  const sampleNow = await rendered(testKey, 'postcards', sample.id);
  t.is(imbOf(sampleNow).tracking_code.slice(0, 11), '00300999999', 'the sample Mailer ID in test mode');
  const samplePdf = await pdfOf(sampleNow);
  t.is(imbIn(samplePdf.pages[1], CARD_BACK.addressZone!).tracking, imbOf(sampleNow).tracking_code);
  t.true(textIn(samplePdf.pages[1], zoneBox(CARD_BACK.postageZone!)).includes('SAMPLE'));
  t.deepEqual(ticketFiles(outbox, held.id), [], 'nothing reached the outbox');
  await close(bare);

  // 2. restarted with the identity, two engines rendering at once: the waiting piece goes on, new ones too
  const [first, second] = [await engine(USPS_ENV), await engine(USPS_ENV)];
  t.deepEqual(await health(first), { ready: true, missing: [] });
  live = client(first.url, keys.live);
  const cards = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      created(live, 'postcards', postcard(i % 4 === 3 ? { mail_type: 'usps_standard', size: '6x9' } : {})),
    ),
  );
  const registered = await created(live, 'letters', letter({ extra_service: 'registered' }));
  t.regex(String(registered.tracking_number), /^RR\d{9}US$/, 'the S10 form USPS uses for registered mail');
  const codes: string[] = [];
  for (const id of [held.id, ...cards.map((c) => c.id)]) {
    const { piece, ticket } = await produced(live, outbox, 'postcards', id);
    t.is(piece.production_hold, undefined, 'no longer waiting');
    t.deepEqual(pieceVendorErrors('GET', `/v1/postcards/${id}`, piece), []);
    const imb = imbOf(piece);
    const pdf = await pdfOf(piece);
    const [, back] = geometryOf('postcards', String(piece.size)).sides;
    const printed = imbIn(pdf.pages[1], back.addressZone!);
    t.deepEqual(
      [printed.tracking, printed.routing],
      [imb.tracking_code, imb.routing_code],
      'the PDF prints the stored code',
    );
    t.deepEqual(ticket.imb, imb, 'the ticket quotes it');
    t.is(imb.tracking_code.slice(5, 11), USPS_ENV.USPS_MAILER_ID, 'the configured Mailer ID');
    const standard = piece.mail_type === 'usps_standard';
    t.is(imb.tracking_code.slice(2, 5), standard ? '301' : '300');
    t.deepEqual(textIn(pdf.pages[1], zoneBox(back.postageZone!)), [
      ...(standard ? ['PRESORTED', 'STANDARD'] : ['FIRST-CLASS MAIL']),
      'U.S. POSTAGE PAID',
      'SAN FRANCISCO, CA',
      `PERMIT NO. ${USPS_ENV.USPS_PERMIT_NUMBER}`,
    ]);
    codes.push(imb.tracking_code);
  }
  const letterNow = await produced(live, outbox, 'letters', registered.id);
  const cover = (await pdfOf(letterNow.piece)).pages[0].text.map((item) => item.str.replace(/\s/g, ''));
  t.is(letterNow.piece.tracking_number, registered.tracking_number, 'the API keeps the number it gave');
  t.true(cover.includes(String(registered.tracking_number)), 'the cover sheet prints it');
  t.is(letterNow.ticket.tracking_number, registered.tracking_number, 'the ticket quotes it');
  codes.push(imbOf(letterNow.piece).tracking_code);
  await close(first);
  await close(second);

  // 3. after a restart the serials go on, none repeated
  const again = await engine(USPS_ENV);
  live = client(again.url, keys.live);
  const later = await Promise.all(Array.from({ length: 3 }, () => created(live, 'postcards', postcard())));
  for (const card of later) codes.push(imbOf((await produced(live, outbox, 'postcards', card.id)).piece).tracking_code);
  const serials = codes.map((code) => code.slice(11));
  t.is(new Set(serials).size, serials.length, `serials unique: ${serials.join(' ')}`);

  // 4. a piece drawn under one Mailer ID and produced after the operator changed it is drawn again
  const scheduled = await created(
    live,
    'postcards',
    postcard({ send_date: new Date(Date.now() + 25_000).toISOString() }),
  );
  const before = imbOf(await rendered(live, 'postcards', scheduled.id));
  t.is(before.tracking_code.slice(5, 11), USPS_ENV.USPS_MAILER_ID);
  await close(again);
  t.deepEqual(ticketFiles(outbox, scheduled.id), [], 'not yet due when the engine stopped');
  const changed = await engine({ ...USPS_ENV, USPS_MAILER_ID: '912345678' });
  live = client(changed.url, keys.live);
  const { piece: redrawn, ticket } = await produced(live, outbox, 'postcards', scheduled.id);
  const printed = imbIn((await pdfOf(redrawn)).pages[1], CARD_BACK.addressZone!);
  t.is(printed.tracking.slice(5, 14), '912345678', 'the PDF mailed carries the Mailer ID configured now');
  t.deepEqual(ticket.imb, imbOf(redrawn));
  t.is(printed.tracking, imbOf(redrawn).tracking_code);
}

for (const db of DATABASES) {
  test.serial(
    `${db}: live pieces wait for the USPS identity, then carry its Mailer ID and permit, serials unique`,
    (t) => scenario(t, db),
  );
}
