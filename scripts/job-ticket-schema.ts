// Writes the job ticket's JSON Schema (engine/domain/production/ticket-schema.ts) to
// docs/job-ticket.schema.json, the file print rooms validate tickets against.
// Usage: npm run build:ticket-schema
import fs from 'node:fs';
import path from 'node:path';
import { jobTicketSchemaDocument } from '../engine/domain/production/ticket-schema';

export const TICKET_SCHEMA_FILE = path.join(__dirname, '..', 'docs', 'job-ticket.schema.json');

export const ticketSchemaText = (): string => `${JSON.stringify(jobTicketSchemaDocument(), null, 2)}\n`;

if (require.main === module) {
  fs.writeFileSync(TICKET_SCHEMA_FILE, ticketSchemaText());
  process.stdout.write(`job ticket schema: ${TICKET_SCHEMA_FILE}\n`);
}
