// An object a commit requires (a letter's card, the version a template publishes) stays live until the
// commit ends: a delete of it waits for the commit (a share lock on PostgreSQL; SQLite's one write
// connection serializes the two), so nothing commits naming an object deleted meanwhile.
import test from 'ava';
import { DATABASES } from '../helpers/matrix';
import { openFreshServices } from '../helpers/services';
import { runGuards } from '../../engine/store/commit';
import { cards } from '../../engine/catalog/cards';
import type { Scope } from '../../engine/store/objects';

const scope: Scope = { accountId: 'acct_required', mode: 'test' };
const settledWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), ms))]);

for (const db of DATABASES)
  test(`${db}: a delete of an object a commit requires waits for that commit`, async (t) => {
    const { services, knex, cleanup } = await openFreshServices(db);
    t.teardown(cleanup);
    const now = new Date().toISOString();
    const card = { id: 'card_required0001', date_created: now, date_modified: now, object: 'card' };
    await services.objects.insert(scope, cards.name, card);
    const ref = { kind: cards.name, id: card.id, refusal: () => new Error('gone') };
    let deletion: Promise<boolean> | undefined;
    await knex.transaction(async (trx) => {
      await runGuards(trx, scope, { requires: [ref] });
      deletion = services.objects.delete(scope, cards, card.id);
      t.false(await settledWithin(deletion, 400), 'the delete waits while the commit holds the card');
    });
    t.true(await deletion, 'then it deletes it');
  });
