// The stateless MCP server opens no stream that outlives a drain: GET /mcp is 405 (the MCP spec's answer
// for a server without server-initiated messages), so an engine whose client asked for one stops within
// a couple of seconds of SIGTERM rather than holding it for SHUTDOWN_TIMEOUT_MS. A real `printpost
// serve` process, on SQLite and PostgreSQL; the SDK's own client still works against it.
import test from 'ava';
import { serve } from '../../helpers/cli';
import { freshDatabase } from '../../helpers/engine';
import { DATABASES } from '../../helpers/matrix';
import { overHttp } from './helpers';

for (const db of DATABASES) {
  test(`${db}: an engine asked for a GET /mcp stream stops within seconds of SIGTERM`, async (t) => {
    const database = await freshDatabase(db);
    t.teardown(() => database.drop());
    const served = await serve({ DATABASE_URL: database.url, SHUTDOWN_TIMEOUT_MS: '20000' });
    const exited = new Promise<void>((resolve) => served.child.once('exit', () => resolve()));
    t.teardown(() => served.child.kill('SIGKILL'));
    const key = served.keys['test secret'];

    // an agent's client works as before: it takes the 405 as "no stream here"
    const client = await overHttp(served.url, key);
    t.true((await client.listTools()).tools.length > 0);
    await client.close();

    const aborter = new AbortController();
    t.teardown(() => aborter.abort());
    const stream = await fetch(`${served.url}/mcp`, {
      headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' },
      signal: aborter.signal,
    });
    t.is(stream.status, 405);
    t.is(stream.headers.get('allow'), 'POST, DELETE');

    // the answer's body is not read yet: an open stream would be what holds the engine
    const began = Date.now();
    served.child.kill('SIGTERM');
    await exited;
    const ms = Date.now() - began;
    t.log(`stopped ${ms} ms after SIGTERM`);
    t.true(ms < 3000, `stopped ${ms} ms after SIGTERM (SHUTDOWN_TIMEOUT_MS is 20000)`);
    t.like(JSON.parse(await stream.text()), { error: { code: 'method_not_allowed', status_code: 405 } });
  });
}
