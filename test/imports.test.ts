// The import graph as docs/ARCHITECTURE.md draws it, read from the sources: no file is part of an
// import circle, every arrow between the engine's concerns points down the layers, and the packs
// reach the engine only through its catalog (credentials below the nodes and triggers that use them).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';

const ROOT = path.resolve(__dirname, '..');
const SOURCES = ['engine', 'nodes', 'triggers', 'credentials', 'migrations'];

/** An engine concern's layer: an import may only point at a lower one. */
const LAYERS: Record<string, number> = {
  'engine/catalog': 0,
  'engine/util': 1,
  'engine/errors.ts': 1,
  migrations: 1,
  'engine/store': 2,
  'engine/config.ts': 3,
  'engine/jobs': 3,
  'engine/assets': 3,
  'engine/net': 3,
  'engine/openapi': 3,
  'engine/accounts': 3,
  'engine/render': 4,
  'engine/services.ts': 4,
  'engine/verify': 5,
  'engine/events': 5,
  'engine/mail': 6,
  'engine/http': 7,
  'engine/workers.ts': 7,
  'engine/server.ts': 8,
  'engine/cli.ts': 9,
};

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const IMPORT = /(?:^|\s)(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm;

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const files = SOURCES.flatMap((dir) => walk(path.join(ROOT, dir)));
const graph = new Map<string, string[]>(
  files.map((file) => {
    const source = readFileSync(file, 'utf8');
    const targets = [...source.matchAll(IMPORT)]
      .map((m) => resolve(file, m[1] ?? m[2]))
      .filter((target): target is string => target !== undefined);
    return [file, targets];
  }),
);
const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

/** engine/<concern> (a folder, or a file at the engine's root), or the top folder outside the engine. */
function concern(file: string): string {
  const parts = rel(file).split('/');
  return parts[0] === 'engine' ? `engine/${parts[1]}` : parts[0];
}

test('no file is part of an import circle', (t) => {
  // Tarjan's strongly connected components: any component of more than one file is a circle
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const circles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, index);
    low.set(file, index++);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, order.get(next)!));
    }
    if (low.get(file) === order.get(file)) {
      const component: string[] = [];
      let top: string;
      do {
        top = stack.pop()!;
        component.push(rel(top));
      } while (top !== file);
      if (component.length > 1) circles.push(component);
    }
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  t.deepEqual(circles, []);
});

test("imports between the engine's concerns point down the layers", (t) => {
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    const from = concern(file);
    if (!(from in LAYERS)) continue;
    for (const target of targets) {
      const to = concern(target);
      if (to === from) continue;
      if (!(to in LAYERS)) upward.push(`${rel(file)} -> ${rel(target)} (not a layer of the engine)`);
      else if (LAYERS[to] >= LAYERS[from]) upward.push(`${rel(file)} -> ${rel(target)}`);
    }
  }
  t.deepEqual(upward, []);
  const concerns = new Set(files.filter((f) => rel(f).startsWith('engine/')).map(concern));
  t.deepEqual(
    [...concerns].filter((c) => !(c in LAYERS)),
    [],
    'every engine concern has its layer here and in docs/ARCHITECTURE.md',
  );
});

test('the packs reach the engine only through its catalog, and credentials import no node or trigger', (t) => {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = concern(file);
    if (!['nodes', 'triggers', 'credentials'].includes(from)) continue;
    for (const target of targets) {
      const to = concern(target);
      const engineOk = to === 'engine/catalog';
      const packOk = to === from || to === 'credentials' || (from === 'triggers' && to === 'nodes');
      if (!engineOk && !packOk) wrong.push(`${rel(file)} -> ${rel(target)}`);
    }
  }
  t.deepEqual(wrong, []);
});
