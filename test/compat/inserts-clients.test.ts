// Drop-in compatibility for inserts: the vendor's clients drive cards and their orders with nothing
// changed but the base URL and the key. `@lob/lob-typescript-sdk` 1.4.x sends JSON, checks the ids it
// reads and pages orders by `limit` and `offset`; `lob` 7.x sends a Buffer side as a multipart file.
// Neither knows buckslips; those are covered over HTTP (test/http/inserts.test.ts).
import {
  CardOrdersApi,
  CardsApi,
  Configuration,
  type CardEditable,
  type CardOrderEditable,
  type CardUpdatable,
} from '@lob/lob-typescript-sdk';
import { databaseSuite } from '../helpers/suite';
import { pdfOf } from '../domain/artwork/pdf-fixtures';

type Obj = Record<string, any>;
interface LobNode {
  cards: { create(p: Obj): Promise<Obj>; retrieve(id: string): Promise<Obj>; delete(id: string): Promise<Obj> };
  cardOrders: { create(id: string, p: Obj): Promise<Obj> };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Lob = require('lob') as (key: string, options: { host: string }) => LobNode;

const { test } = databaseSuite();

const FRONT = '<html><body><h1>Member card</h1></body></html>';
/** The SDK takes plain objects as bodies (it JSON-stringifies them). */
const plain = <T>(body: Record<string, unknown>) => body as unknown as T;

test('lob sdk: a card is created, read, updated and listed; orders made and paged by offset; deleted', async (t, {
  engine,
}) => {
  const config = new Configuration({ basePath: `${engine.url}/v1`, username: engine.keys.test });
  const cards = new CardsApi(config);
  const card = await cards.create(plain<CardEditable>({ front: FRONT, description: 'Loyalty' }));
  const id = String(card.id);
  t.regex(id, /^card_/);
  t.is((await cards.get(id)).description, 'Loyalty');
  t.is((await cards.update(id, plain<CardUpdatable>({ description: 'Gold' }))).description, 'Gold');
  t.true(((await cards.list(100)).data ?? []).some((c) => c.id === id));
  const orders = new CardOrdersApi(config);
  const first = await orders.create(id, plain<CardOrderEditable>({ quantity: 10_000 }));
  const second = await orders.create(id, plain<CardOrderEditable>({ quantity: 20_000 }));
  t.regex(String(first.id), /^co_/);
  const page = async (offset: number) => ((await orders.get(id, 1, offset)).data ?? []).map((o) => o.id);
  t.deepEqual([...(await page(0)), ...(await page(1))], [second.id, first.id], 'newest first');
  t.deepEqual(await page(2), []);
  t.is((await cards.get(id)).pending_quantity, 30_000);
  t.like(await cards.delete(id), { id, deleted: true });
});

test('lob node: a card from a PDF Buffer (multipart) and its order', async (t, { engine }) => {
  const lob = Lob(engine.keys.test, { host: `${engine.url}/v1/` });
  const card = await lob.cards.create({ front: await pdfOf([[3.625, 2.375]]), description: 'From a file' });
  t.regex(card.id, /^card_/);
  t.is((await lob.cards.retrieve(card.id)).description, 'From a file');
  t.like(await lob.cardOrders.create(card.id, { quantity: 10_000 }), { card_id: card.id, status: 'pending' });
});
