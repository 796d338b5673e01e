// A writer killed mid-write (kill -9 during a render) leaves a `.part` file in the asset folder: an engine
// sweeps those at start, but only once they are old enough that no other process sharing the folder can
// still be writing them; finished files and young `.part` files stay.
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEngine } from '../../helpers/engine';
import { STALE_PART_MS } from '../../../engine/platform/assets/directory-store';

test('an engine start removes stale .part files and leaves the rest', async (t) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-sweep-'));
  const file = (relative: string, ageMs = 0) => {
    const full = path.join(root, relative);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, 'x');
    const when = new Date(Date.now() - ageMs);
    fs.utimesSync(full, when, when);
    return full;
  };
  const stale = [
    file('postcards/psc_1.pdf.0123456789ab.part', STALE_PART_MS + 60_000),
    file('letters/deep/ltr_2.png.abcdef012345.part', 24 * 3_600_000),
  ];
  const kept = [
    file('postcards/psc_1.pdf', 24 * 3_600_000),
    file('postcards/psc_3.pdf.fedcba987654.part', 60_000), // another process may be writing it
    file('postcards/notes.part', 24 * 3_600_000), // not a name the store writes
  ];
  const engine = await startEngine({ env: { ASSET_STORE: root } });
  try {
    while (stale.some((f) => fs.existsSync(f))) await new Promise((resolve) => setTimeout(resolve, 50));
    t.deepEqual(
      kept.filter((f) => !fs.existsSync(f)),
      [],
    );
  } finally {
    await engine.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
});
