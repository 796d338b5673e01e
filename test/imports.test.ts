// The import graph as docs/ARCHITECTURE.md draws it, read from the sources: no file is part of an
// import circle, every arrow between the engine's concerns points down the layers, and the packs
// reach the engine only through its catalog and protocol, their parts layered by role (credentials,
// then nodes, then triggers, then the packs' entries that assemble them).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';

const ROOT = path.resolve(__dirname, '..');
const SOURCES = ['engine', 'nodes', 'triggers', 'credentials', 'migrations'];

/**
 * An engine part's layer: an import may only point at a lower one (docs/ARCHITECTURE.md, "The map").
 * catalog and protocol use nothing of ours; http reaches the data through the domain.
 */
const LAYERS: Record<string, number> = {
  'engine/catalog': 0,
  'engine/protocol': 0,
  'engine/base': 1,
  migrations: 1,
  'engine/store': 2,
  'engine/platform': 3,
  'engine/print': 4,
  'engine/domain': 5,
  'engine/http': 6,
  'engine/faces': 7,
};

/** Parts that may import nothing of ours but themselves. */
const SELF_CONTAINED = new Set(['engine/catalog', 'engine/protocol']);

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

/** engine/<part>, or the top folder outside the engine. */
function concern(file: string): string {
  const parts = rel(file).split('/');
  return parts[0] === 'engine' ? `engine/${parts[1]}` : parts[0];
}

test('the graph is read: every part has files, and they import', (t) => {
  // a broken pattern or an empty tree would let every other test here pass on nothing
  const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
  t.true(files.length > 250, `${files.length} files read`);
  t.true(edges > 1000, `${edges} imports read`);
  for (const part of Object.keys(LAYERS)) {
    const own = files.filter((f) => concern(f) === part);
    t.true(own.length > 0, `${part} has files`);
    if (part !== 'engine/protocol')
      t.true(
        own.some((f) => graph.get(f)!.length > 0),
        `${part} imports something`,
      );
  }
});

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
      if (SELF_CONTAINED.has(from)) upward.push(`${rel(file)} -> ${rel(target)} (${from} uses nothing of ours)`);
      else if (!(to in LAYERS)) upward.push(`${rel(file)} -> ${rel(target)} (not a layer of the engine)`);
      else if (LAYERS[to] >= LAYERS[from]) upward.push(`${rel(file)} -> ${rel(target)}`);
    }
  }
  t.deepEqual(upward, []);
  const concerns = new Set(files.filter((f) => rel(f).startsWith('engine/')).map(concern));
  t.deepEqual(
    [...concerns].filter((c) => !(c in LAYERS)),
    [],
    'every engine part has its layer here and in docs/ARCHITECTURE.md',
  );
});

/**
 * The packs' parts by role, lowest first: an import may point at its own part or a lower one.
 * credentials (how a platform authenticates) use none of the others; a node (actions, searches,
 * dropdown lists) may use credentials; a trigger may use nodes' helpers too; the Zapier pack's entry
 * (the app Zapier loads) assembles all three, and nothing imports it.
 */
const PACK_ROLES: Record<string, number> = { credentials: 0, nodes: 1, triggers: 2, entry: 3 };
const ZAPIER_ENTRY = 'nodes/zapier/app.ts';
/** A pack file's role: the Zapier entry is its own, above the three. */
const roleOf = (file: string) => (rel(file) === ZAPIER_ENTRY ? 'entry' : concern(file));

test('the packs reach the engine only through its catalog and protocol, and their imports point down the roles', (t) => {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = roleOf(file);
    if (!(from in PACK_ROLES)) continue;
    for (const target of targets) {
      const to = roleOf(target);
      const engineOk = to === 'engine/catalog' || to === 'engine/protocol';
      const packOk = to in PACK_ROLES && PACK_ROLES[to] <= PACK_ROLES[from];
      if (!engineOk && !packOk) wrong.push(`${rel(file)} -> ${rel(target)}`);
    }
  }
  t.deepEqual(wrong, []);
  // the rule is exercised, not vacuous: each role above credentials imports the one below it
  const imports = (from: string, to: string) =>
    [...graph].some(([file, targets]) => roleOf(file) === from && targets.some((f) => roleOf(f) === to));
  t.true(imports('nodes', 'credentials'), 'a node uses credentials');
  t.true(imports('triggers', 'nodes'), "a trigger uses a node's helpers");
  for (const part of ['credentials', 'nodes', 'triggers'])
    t.true(imports('entry', part), `the Zapier entry assembles ${part}`);
});
