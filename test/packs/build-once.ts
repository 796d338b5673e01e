// Each test process builds the packs into its own folder under dist/test-packs (ava runs files in parallel).
import { mkdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildPacks } from '../../scripts/build-packs';

let built: Promise<{ n8nDir: string; zapierDir: string; root: string }> | undefined;

export function builtPacks() {
  built ??= (async () => {
    const root = resolve(__dirname, '../../dist/test-packs', `${process.pid}-${Date.now().toString(36)}`);
    mkdirSync(root, { recursive: true });
    const dirs = await buildPacks({ quiet: true, outDir: root });
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
    return { ...dirs, root };
  })();
  return built;
}
