// A rolling restart under load: two engine processes on one database (and one asset folder, as on one
// machine) take steady creates, render them and deliver their events to a webhook, while each in turn
// gets SIGTERM and is started again. A client that meets a closed connection goes to the other
// process with the same Idempotency-Key, as a load balancer would. Every create must end in a 2xx,
// each piece exist once and render, each event reach the webhook once, and each drained process exit 0.
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { freshDatabase } from '../../helpers/engine';
import { serve, unlimitedAsync, type Served } from '../../helpers/cli';
import { client } from '../../helpers/http';
import { DATABASES } from '../../helpers/matrix';
import { TO } from '../../helpers/mail';
import { startReceiver } from '../../helpers/receiver';

const HTML = '<html><body style="margin:0"><h1>Rolling</h1></body></html>';
const IN_FLIGHT = 2;
/** between one loader's creates: a steady stream (about 12 a second), not a flood to render afterwards */
const PAUSE_MS = 150;

const exited = (served: Served) =>
  new Promise<number | null>((resolve) => {
    if (served.child.exitCode !== null) return resolve(served.child.exitCode);
    served.child.once('exit', (code) => resolve(code));
  });

for (const db of DATABASES) {
  test.serial(`${db}: two engines restarted one after the other under load lose and double nothing`, async (t) => {
    t.timeout(240_000);
    const database = await freshDatabase(db);
    const assets = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-rolling-'));
    const receiver = await startReceiver();
    const env = {
      DATABASE_URL: database.url,
      ASSET_STORE: assets,
      WORKERS: '1',
      ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8',
      SHUTDOWN_TIMEOUT_MS: '15000',
      LOG_LEVEL: 'error',
    };
    const live: Served[] = [];
    const all: Served[] = [];
    const start = async () => {
      const served = await serve(env);
      all.push(served);
      live.push(served);
      return served;
    };
    try {
      const first = await start();
      const key = first.keys['test secret'];
      await unlimitedAsync(env);
      await start();
      const hook = await client(first.url, key)('POST', '/v1/webhooks', {
        json: { url: receiver.url, event_types: ['postcard.created', 'postcard.rendered_pdf'] },
      });
      t.is(hook.status, 200, JSON.stringify(hook.body));

      // the load: creates, each retried on a live process (same key) when its connection is refused or cut
      const answers: { status: number; id?: string }[] = [];
      let retried = 0;
      let loading = true;
      let turn = 0;
      const createOne = async () => {
        const idempotency = randomUUID();
        for (let tries = 0; tries < 20; tries++) {
          const target = live[turn++ % live.length];
          try {
            const reply = await client(target.url, key)('POST', '/v1/postcards', {
              json: { to: TO, from: TO, front: HTML, back: HTML, use_type: 'marketing' },
              headers: { 'idempotency-key': idempotency },
            });
            answers.push({ status: reply.status, id: reply.body?.id });
            return;
          } catch {
            retried++; // no answer: the connection was refused or closed by a process going away
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
        }
        answers.push({ status: 0 });
      };
      const loaders = Array.from({ length: IN_FLIGHT }, async () => {
        while (loading) {
          await createOne();
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        }
      });

      // restart each process in turn while the load goes on
      const exits: (number | null)[] = [];
      for (const name of ['first', 'second']) {
        await new Promise((resolve) => setTimeout(resolve, 2500));
        const going = live.shift()!;
        going.child.kill('SIGTERM');
        exits.push(await exited(going));
        t.log(`${name} process drained`);
        await start();
      }
      await new Promise((resolve) => setTimeout(resolve, 2500));
      loading = false;
      await Promise.all(loaders);

      t.deepEqual(exits, [0, 0], 'each drained process exits 0');
      const failed = answers.filter((a) => a.status !== 200);
      t.deepEqual(failed, [], 'every create answered 200');
      const ids = new Set(answers.map((a) => a.id));
      t.is(ids.size, answers.length, 'one piece per create');
      t.log(`${answers.length} creates, ${retried} sent again to the other process`);
      t.true(answers.length > 20, `steady load: ${answers.length} creates`);

      const api = client(live[0].url, key);
      const total = await api('GET', '/v1/postcards?limit=1&include[]=total_count');
      t.is(total.body.total_count, answers.length, 'no piece doubled');
      // every piece renders, and its events reach the webhook once each
      const expected = answers.length * 2;
      await receiver.waitFor(expected, 120_000);
      await new Promise((resolve) => setTimeout(resolve, 2000)); // time for a second copy to show
      const events = receiver.received.map(
        (r) => JSON.parse(r.body) as { id: string; event_type: { id: string }; body: { id: string } },
      );
      t.is(new Set(events.map((e) => e.id)).size, events.length, 'no event delivered twice');
      const rendered = events.filter((e) => e.event_type.id === 'postcard.rendered_pdf').map((e) => e.body.id);
      t.is(rendered.length, answers.length);
      t.deepEqual([...new Set(rendered)].sort(), [...ids].sort(), 'each piece rendered once');
    } finally {
      for (const served of all) served.child.kill('SIGKILL');
      await Promise.all(all.map(exited));
      await receiver.close();
      await database.drop();
      fs.rmSync(assets, { recursive: true, force: true });
    }
  });
}
