// The job ticket's JSON Schema is published in the repository (docs/job-ticket.schema.json) and is
// exactly the declaration the engine's tickets are typed by; the schema refuses a ticket missing a
// finishing instruction. Tickets the engine writes are checked against it in print-room.test.ts.
import fs from 'node:fs';
import test from 'ava';
import { jobTicketSchemaDocument } from '../../../engine/domain/production/ticket-schema';
import { TICKET_SCHEMA_PATH, ticketSchemaErrors } from '../../helpers/ticket-schema';

test('the committed docs/job-ticket.schema.json is the declared ticket schema (npm run build:ticket-schema)', (t) => {
  t.deepEqual(JSON.parse(fs.readFileSync(TICKET_SCHEMA_PATH, 'utf8')), jobTicketSchemaDocument());
});

const ticket = {
  ticket: 'pjob_0123456789abcdef',
  piece_id: 'ltr_0123456789abcdef',
  kind: 'letters',
  object: 'letter',
  product: { size: 'us_letter', pages: [{ side: 'file', width_in: 8.5, height_in: 11 }] },
  size: 'us_letter',
  pdf: 'ltr_0123456789abcdef.pdf',
  pages: 3,
  sheets: 2,
  sides: 'duplex',
  color: false,
  double_sided: true,
  address_placement: 'top_first_page',
  perforated_page: 3,
  return_envelope: true,
  custom_envelope: null,
  inserts: [{ type: 'card', id: 'card_123', size: '2.125x3.375', description: null }],
  mail_type: 'usps_first_class',
  extra_service: null,
  to: { name: 'Harry Zhang', address_line1: '210 King St' },
  from: null,
  imb: { tracking_code: '00040999999000000001', routing_code: '94107' },
  tracking_number: null,
  indicia: {
    mail_class: 'usps_first_class',
    international: false,
    permit_number: '4321',
    permit_city: 'SAN FRANCISCO',
    permit_state: 'CA',
    lines: ['FIRST-CLASS MAIL', 'U.S. POSTAGE PAID', 'SAN FRANCISCO, CA', 'PERMIT NO. 4321'],
  },
  send_date: '2024-05-01T00:00:00.000Z',
  date_produced: '2024-05-01T00:05:00.000Z',
  account_id: 'acct_1',
};

test('the schema takes a complete ticket and refuses one without a finishing instruction or with a wrong one', (t) => {
  t.deepEqual(ticketSchemaErrors(ticket), []);
  const { sheets: _sheets, ...withoutSheets } = ticket;
  t.true(ticketSchemaErrors(withoutSheets).some((e) => e.includes('sheets')));
  t.not(ticketSchemaErrors({ ...ticket, sides: 'both' }).length, 0);
  t.not(ticketSchemaErrors({ ...ticket, pages: 0 }).length, 0);
  t.not(
    ticketSchemaErrors({ ...ticket, inserts: [{ type: 'sticker', id: 'x', size: '1x1', description: null }] }).length,
    0,
  );
  t.not(ticketSchemaErrors({ ...ticket, extra: 1 }).length, 0, 'no field the schema does not declare');
  const { permit_number: _permit, ...withoutPermit } = ticket.indicia;
  t.true(
    ticketSchemaErrors({ ...ticket, indicia: withoutPermit }).some((e) => e.includes('permit_number')),
    "a letter's indicia names its permit",
  );
  t.deepEqual(ticketSchemaErrors({ ...ticket, kind: 'postcards', indicia: null }), [], 'a card prints its own');
});
