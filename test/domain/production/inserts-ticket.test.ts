// A live letter naming a card and a buckslip goes to production with both listed in its job ticket
// (type, id, size, description), through a real engine with its workers on each database; a letter
// without inserts lists none.
import test from 'ava';
import { DATABASES } from '../../helpers/matrix';
import { letter } from '../../helpers/mail';
import { liveAccount, ticketOf } from './production-helpers';
import { created, enginePerDatabase } from './lifecycle-helpers';

const engines = enginePerDatabase();
test.after.always(() => engines.close());

const FRONT = '<html><body><h1>Member card</h1></body></html>';

for (const db of DATABASES)
  test.serial(`${db}: a live letter's job ticket lists the card and buckslip it carries`, async (t) => {
    t.timeout(240_000);
    const s = await engines.setupFor(db);
    const { live } = await liveAccount(s.engine);
    const card = await created(live, 'cards', { front: FRONT, description: 'Gold member', size: '3.375x2.125' });
    const slip = await created(live, 'buckslips', { front: FRONT });
    const carried = await created(live, 'letters', letter({ cards: [card.id], buckslips: [slip.id] }));
    const plain = await created(live, 'letters', letter());

    const { ticket } = await ticketOf(s.outbox, carried.id);
    t.deepEqual(ticket.inserts, [
      { type: 'card', id: card.id, size: '3.375x2.125', description: 'Gold member' },
      { type: 'buckslip', id: slip.id, size: '8.75x3.75', description: null },
    ]);
    t.deepEqual((await ticketOf(s.outbox, plain.id)).ticket.inserts, []);
  });
