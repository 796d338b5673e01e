// Makes test/fixtures/vendor-openapi.schema.json from the vendor's published OpenAPI document (given as
// the one argument): the structure the contract tests validate against (paths, parameters, responses,
// component schemas and the examples the helper's own tests check), without descriptions and summaries. Run again for a new version:
//   node --import tsx scripts/extract-vendor-schema.ts path/to/openapi.yml
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const PROSE = new Set(['description', 'summary', 'externalDocs', 'x-codeSamples', 'tags']);

/** Drops prose keys, except where they are names (a `properties` map may hold a field called description). */
function strip(value: unknown, parentKey = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => strip(item));
  if (typeof value !== 'object' || value === null) return value;
  const names =
    parentKey === 'properties' || parentKey === 'schemas' || parentKey === 'paths' || parentKey === 'responses';
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!names && PROSE.has(key)) continue;
    out[key] = strip(item, key);
  }
  return out;
}

const source = process.argv[2];
if (!source) throw new Error('usage: extract-vendor-schema.ts <openapi.yml>');
const doc = parse(fs.readFileSync(source, 'utf8'), { uniqueKeys: false }) as Record<string, unknown>;
const info = doc.info as Record<string, unknown>;
const extract = {
  openapi: doc.openapi,
  info: { title: info.title, version: info.version, license: info.license },
  servers: doc.servers,
  paths: strip(doc.paths, 'paths'),
  components: strip(doc.components),
};
const target = path.join(__dirname, '..', 'test', 'fixtures', 'vendor-openapi.schema.json');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, `${JSON.stringify(extract)}\n`);
process.stdout.write(
  `wrote ${target} (${fs.statSync(target).size} bytes) from ${path.basename(source)} ${String(info.version)}\n`,
);
