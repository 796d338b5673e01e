// `printpost streets`: load public street data (TIGER/Line address ranges, OpenAddresses or NAD points) for
// live US verification, and see what is loaded. The reading and loading is the domain's
// (domain/streets); this file parses the command line and prints.
import { parseArgs } from 'node:util';
import { importStreetFile, type ImportSummary } from '../../domain/streets/import';
import type { StreetLoad } from '../../store/streets';
import { UsageError, withServices } from './common';

export const STREETS_HELP = {
  streets: `Usage: printpost streets import FILE...
       printpost streets status

import loads street data for live US verification, each file in turn:
  tl_YYYY_SSCCC_addrfeat.zip   a TIGER/Line ADDRFEAT county file (Census Bureau, public domain)
  NAME.csv                     an OpenAddresses CSV (LON,LAT,NUMBER,STREET,UNIT,...,POSTCODE,ID,HASH)
  NAME.txt                     a USDOT National Address Database text export (public domain)
A county or source loaded again replaces what it loaded before, in one commit. A file that is not
one of these is refused and the data is left as it was. status lists what is loaded.`,
};

const thousands = (n: number) => n.toLocaleString('en-US');

function reasons(skipped: Record<string, number>): string {
  const list = Object.entries(skipped).sort((a, b) => b[1] - a[1]);
  return list.length === 0 ? '' : ` (${list.map(([why, n]) => `${thousands(n)} ${why}`).join('; ')})`;
}

export function summaryLine(s: ImportSummary): string {
  const rate = s.seconds > 0 ? `, ${thousands(Math.round(s.rows / s.seconds))} rows/s` : '';
  const what = s.kind === 'tiger_addrfeat' ? `county ${s.source}` : `source ${s.source}`;
  return `${s.file}: ${what}, ${thousands(s.rows)} rows loaded, ${thousands(s.skipped)} skipped${reasons(s.skippedReasons)}, ${s.seconds.toFixed(1)} s${rate}\n`;
}

export function statusLines(loads: StreetLoad[]): string {
  if (loads.length === 0) return 'no street data loaded: live US verification checks the last line only\n';
  return loads
    .map(
      (l) =>
        `${l.kind}\t${l.source}\t${thousands(l.rows)} rows\t${thousands(l.skipped)} skipped\t${l.loaded_at}\t${l.file}\n`,
    )
    .join('');
}

/** A bar on a terminal only: piped output (scripts, logs) gets the summary alone. */
function progressBar(file: string): ((fraction: number, rows: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (fraction, rows) => {
    const width = 30;
    const filled = Math.round(fraction * width);
    process.stderr.write(
      `\r${file} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${Math.round(fraction * 100)}% ${thousands(rows)} rows`,
    );
  };
}

export async function streets(args: string[]): Promise<void> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [verb, ...files] = positionals;
  if (verb === 'status' && files.length === 0) {
    const out = await withServices(async (services) => statusLines(await services.store.streets.activeLoads()));
    process.stdout.write(out);
    return;
  }
  if (verb !== 'import' || files.length === 0) throw new UsageError(STREETS_HELP.streets);
  await withServices(async (services) => {
    for (const file of files) {
      const bar = progressBar(file);
      try {
        const summary = await importStreetFile(services.store, file, bar);
        if (bar) process.stderr.write('\n');
        process.stdout.write(summaryLine(summary));
      } catch (error) {
        if (bar) process.stderr.write('\n');
        throw error;
      }
    }
  });
}
