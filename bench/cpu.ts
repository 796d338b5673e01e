// CPU time of a process tree, from /proc: on this shared 2-core machine another run's load moves the
// wall-clock rates of a render bench by a third, while the CPU its own processes spent on the same
// pieces stays put, so both are printed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

let ticksPerSecond: number | undefined;

/** ms of CPU (user and system) spent by `pid` itself (all its threads). */
export function ownCpuMs(pid: number): number {
  return cpuMs(pid, false);
}

/** ms of CPU (user and system) spent by `pid`, its descendants, and the children they reaped. */
export function treeCpuMs(pid: number): number {
  return cpuMs(pid, true);
}

function cpuMs(pid: number, tree: boolean): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  const stats = new Map<number, string[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // the fields after the command's closing parenthesis, from the state (field 3) on
      stats.set(Number(entry), stat.slice(stat.lastIndexOf(')') + 2).split(' '));
    } catch {
      // gone meanwhile
    }
  }
  let ticks = 0;
  const visit = (p: number) => {
    const fields = stats.get(p);
    if (!fields) return;
    // utime, stime, cutime, cstime: fields 14 to 17
    ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    if (!tree) return;
    for (const [child, childFields] of stats) if (Number(childFields[1]) === p) visit(child);
  };
  visit(pid);
  return (ticks * 1000) / ticksPerSecond;
}
