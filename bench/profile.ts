// Where a request's time goes: the engine in its own process under --cpu-prof while autocannon loads
// one scenario, then the profile summed by self time per function and per file or package. The
// .cpuprofile is left in bench-output/ (git-ignored) for a flame graph (Chrome DevTools, speedscope).
// Usage: npm run profile -- [get|list|pages|create|postcard] [--pg-url URL] (compiled first, so frames name source lines)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startChild } from './lib';
import { ADDRESS_BODIES, POSTCARD_BODIES } from './bodies';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const OUT = path.join(__dirname, '..', 'bench-output');

/** CPU time the process has used (user and system), in ms: steadier than a rate on a shared machine. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Self time per key, in ms, largest first. */
function selfTimes(profile: Profile, keyOf: (node: Node) => string): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const key = keyOf(byId.get(id)!);
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

function fileOf(node: Node): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `npm:${pkg[1]}`;
  if (url.startsWith('node:')) return url;
  return path.relative(path.join(__dirname, '..'), url.replace(/^file:\/\//, ''));
}

const funcOf = (node: Node) =>
  `${node.callFrame.functionName || '(anonymous)'} ${fileOf(node)}:${node.callFrame.lineNumber + 1}`;

async function main(): Promise<void> {
  const scenario = process.argv[2] ?? 'get';
  const pgAt = process.argv.indexOf('--pg-url');
  fs.mkdirSync(OUT, { recursive: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-profile-'));
  const before = new Set(fs.readdirSync(OUT));
  // RATE_ONLY=1: the same load without the profiler, for comparing two builds' rates
  const rateOnly = process.env.RATE_ONLY === '1';
  if (!rateOnly) process.env.BENCH_NODE_ARGS = `--cpu-prof --cpu-prof-dir=${OUT}`;
  const engine = await startChild('engine-server.ts', {
    DATABASE_URL: pgAt > 0 ? process.argv[pgAt + 1] : path.join(dir, 'profile.sqlite'),
  });
  const key = engine.lines.find((l) => l.startsWith('KEY '))!.slice(4);
  const headers = {
    authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
    'content-type': 'application/json',
  };
  const created = await fetch(`${engine.url}/v1/addresses`, { method: 'POST', headers, body: ADDRESS_BODIES[0] });
  const { id } = (await created.json()) as { id: string };
  // a list page of 10 lists 10, as it does in bench/addresses.ts after its creates
  for (const body of [...ADDRESS_BODIES, ...ADDRESS_BODIES])
    await fetch(`${engine.url}/v1/addresses`, { method: 'POST', headers, body });
  // and `pages` walks 1,000 pages of them
  if (scenario === 'pages')
    for (let i = 0; i < 10_000; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, (_, j) =>
          fetch(`${engine.url}/v1/addresses`, { method: 'POST', headers, body: ADDRESS_BODIES[(i + j) % 12] }),
        ),
      );
  // `pages`: every request another page of 10 (none answered from the list cache), as bench/addresses.ts walks
  const pages: string[] = [];
  for (let next: string | null = '/v1/addresses?limit=10'; next && pages.length < 1000;) {
    pages.push(next);
    next = ((await (await fetch(`${engine.url}${next}`, { headers })).json()) as { next_url: string | null }).next_url;
    if (next) next = next.replace(/^https?:\/\/[^/]+/, '');
  }
  let page = 0;
  let turn = 0;
  const posting = (bodies: string[], url: string): autocannon.Options => ({
    url,
    method: 'POST',
    headers,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: bodies[turn++ % bodies.length] }) }],
  });
  const options: autocannon.Options = {
    get: { url: `${engine.url}/v1/addresses/${id}`, headers },
    list: { url: `${engine.url}/v1/addresses?limit=10`, headers },
    pages: {
      url: `${engine.url}${pages[0]}`,
      headers,
      requests: [
        { setupRequest: (request: autocannon.Request) => ({ ...request, path: pages[page++ % pages.length] }) },
      ],
    },
    create: posting(ADDRESS_BODIES, `${engine.url}/v1/addresses`),
    postcard: posting(POSTCARD_BODIES, `${engine.url}/v1/postcards`),
  }[scenario]!;
  const cpuBefore = cpuMs(engine.process.pid!);
  const result = await autocannon({ connections: 32, duration: 10, ...options });
  const cpuPerRequest = ((cpuMs(engine.process.pid!) - cpuBefore) * 1000) / result.requests.total;
  const exited = new Promise((resolve) => engine.process.once('exit', resolve));
  engine.process.kill('SIGINT');
  await exited;
  fs.rmSync(dir, { recursive: true, force: true });
  process.stdout.write(
    `${scenario}: ${Math.round(result.requests.average)} req/s, ${result.requests.total} requests, engine CPU ${cpuPerRequest.toFixed(0)} µs a request\n`,
  );
  if (rateOnly) return;
  const file = fs.readdirSync(OUT).find((f) => !before.has(f) && f.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(fs.readFileSync(path.join(OUT, file), 'utf8')) as Profile;
  const requests = result.requests.total;
  const perRequest = (ms: number) => `${((ms * 1000) / requests).toFixed(1).padStart(7)} µs`;
  process.stdout.write(`profile: ${path.join(OUT, file)}\n\nself time per request, by file or package\n`);
  for (const [name, ms] of selfTimes(profile, fileOf).slice(0, 25))
    process.stdout.write(`${perRequest(ms)}  ${name}\n`);
  process.stdout.write('\nself time per request, by function\n');
  for (const [name, ms] of selfTimes(profile, funcOf).slice(0, 40))
    process.stdout.write(`${perRequest(ms)}  ${name}\n`);
}

void main();
