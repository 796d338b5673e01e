// The job ticket's published JSON Schema (docs/job-ticket.schema.json), compiled once with ajv as a print
// room would: what a test checks every ticket the engine writes against.
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';

export const TICKET_SCHEMA_PATH = path.join(__dirname, '..', '..', 'docs', 'job-ticket.schema.json');

let compiled: ReturnType<Ajv2020['compile']> | undefined;

/** The schema's complaints about `ticket` (empty when it is valid). */
export function ticketSchemaErrors(ticket: unknown): string[] {
  compiled ??= new Ajv2020({ strict: true, allErrors: true }).compile(
    JSON.parse(fs.readFileSync(TICKET_SCHEMA_PATH, 'utf8')) as object,
  );
  if (compiled(ticket)) return [];
  return (compiled.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
