// One engine per database for a test file: `forEachDatabase((t, ctx) => …)` registers each test per database.
import test, { type ExecutionContext } from 'ava';
import { startEngine, type Db, type TestEngine } from './engine';
import { client } from './http';
import { DATABASES } from './matrix';

export interface SuiteContext {
  engine: TestEngine;
  /** calls with the default account's test secret key unless `key` is given */
  api: ReturnType<typeof client>;
  db: Db;
}

type Body = (t: ExecutionContext, ctx: SuiteContext) => Promise<void> | void;

export function databaseSuite(options: Parameters<typeof startEngine>[0] = {}) {
  const engines = new Map<Db, Promise<TestEngine>>();
  const engineFor = (db: Db) => {
    let engine = engines.get(db);
    if (!engine) {
      engine = startEngine({ ...options, db });
      engines.set(db, engine);
    }
    return engine;
  };
  test.after.always(async () => {
    for (const engine of engines.values()) await (await engine).close();
  });
  const register = (kind: 'serial' | 'plain') => (title: string, body: Body) => {
    for (const db of DATABASES) {
      const run = async (t: ExecutionContext) => {
        const engine = await engineFor(db);
        await body(t, { engine, api: client(engine.url, engine.keys.test), db });
      };
      if (kind === 'serial') test.serial(`${db}: ${title}`, run);
      else test(`${db}: ${title}`, run);
    }
  };
  return { test: register('plain'), serial: register('serial') };
}
