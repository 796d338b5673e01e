// Shared by the benchmarks: child servers, autocannon runs, RSS, printing.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { ownCpuMs } from './cpu';

export interface Child {
  process: ChildProcess;
  url: string;
  /** lines the child printed */
  lines: string[];
}

// Compiled with tsc (a profile then names source lines), the benchmarks start compiled children.
const compiled = __filename.endsWith('.js');

/** The node flags `bin/printpost` starts node with: the engine child runs with what `printpost serve` runs with. */
export function servingNodeFlags(): string[] {
  // compiled, this file is bench-output/build/bench/lib.js
  const bin = path.resolve(__dirname, compiled ? '../../..' : '..', 'bin', 'printpost');
  const exec = /^":" \/\/; exec node (.*) "\$0" "\$@"$/m.exec(fs.readFileSync(bin, 'utf8'));
  return exec ? exec[1].split(/\s+/).filter((word) => word.startsWith('--')) : [];
}

/** Starts `file` (with tsx, unless compiled) in its own process and waits for its `READY <url>` line. */
export function startChild(file: string, env: Record<string, string> = {}): Promise<Child> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...(file === 'engine-server.ts' ? servingNodeFlags() : []),
        ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
        // tsx's CommonJS hook, as bin/printpost runs the engine from a checkout: `--import tsx` also runs
        // its ES module hooks on a thread of their own, which added 25 MB to every child's RSS
        ...(compiled
          ? [path.join(__dirname, file.replace(/\.ts$/, '.js'))]
          : ['--require', require.resolve('tsx/cjs'), path.join(__dirname, file)]),
      ],
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const lines: string[] = [];
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${file} did not start within 60 s`));
    }, 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(line);
        const ready = /^READY (\S+)/.exec(line);
        if (ready) {
          clearTimeout(timer);
          resolve({ process: child, url: ready[1], lines });
        }
      }
    });
    child.on('exit', (code) => reject(new Error(`${file} exited ${code}`)));
  });
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

export interface LoadResult {
  name: string;
  rps: number;
  /** mean latency, ms (autocannon's percentiles are whole milliseconds) */
  mean: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  rssMb: number;
  /** CPU (user and system) the server process spent per answered request, µs: steadier than the rate on a shared machine */
  cpuUs: number;
}

export async function load(name: string, child: Child, options: autocannon.Options): Promise<LoadResult> {
  const cpuBefore = ownCpuMs(child.process.pid!);
  const result = await autocannon({ connections: 32, duration: 10, ...options });
  const cpuUs = Math.round(((ownCpuMs(child.process.pid!) - cpuBefore) * 1000) / Math.max(1, result.requests.total));
  return {
    name,
    rps: Math.round(result.requests.average),
    mean: Math.round(result.latency.average * 100) / 100,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
    rssMb: rssMb(child.process.pid!),
    cpuUs,
  };
}

export function printTable(rows: LoadResult[]): void {
  process.stdout.write(
    `${'scenario'.padEnd(34)} ${'req/s'.padStart(8)} ${'mean ms'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'non2xx'.padStart(7)} ${'RSS MB'.padStart(7)} ${'CPU µs'.padStart(7)}\n`,
  );
  for (const r of rows) {
    process.stdout.write(
      `${r.name.padEnd(34)} ${String(r.rps).padStart(8)} ${r.mean.toFixed(2).padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${String(r.non2xx + r.errors).padStart(7)} ${String(r.rssMb).padStart(7)} ${String(r.cpuUs).padStart(7)}\n`,
    );
  }
}
