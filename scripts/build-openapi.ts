// Writes the OpenAPI 3.1 document generated from the catalog to dist/openapi.json.
// Usage: node --import tsx scripts/build-openapi.ts
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../engine/http/openapi';

const out = path.join(__dirname, '..', 'dist', 'openapi.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
process.stdout.write(`openapi: ${out}\n`);
