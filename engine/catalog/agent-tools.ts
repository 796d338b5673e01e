// The API as tools for AI agents (the MCP server, engine/faces/mcp): each tool names the catalog
// operation it calls, a description written for a model, MCP's behaviour hints and whether it is on
// without the operator asking (MCP_TOOLS turns the others on). Mail goes out in two tools a kind: a
// preview (a test piece, rendered) and a send that needs the preview's confirmation token in live mode.

/** MCP's tool annotations: hints a client shows its user or uses to ask before a call. */
export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** the tool reaches beyond the engine (mail leaves for the printer and the post) */
  openWorldHint: boolean;
}

/**
 * How a tool calls the API. `call`: its operation, arguments as path, query and body. `preview` and
 * `send`: a mailpiece create, as a rendered test piece or for real. `piece`: get, list or cancel a
 * mailpiece of any kind (the id's prefix or `kind` says which).
 */
export type ToolFlow = 'call' | 'preview' | 'send' | 'piece';

export interface AgentTool {
  /** at most 64 characters of [a-z0-9_] (MCP clients refuse longer names) */
  name: string;
  /** the catalog resource and operation it calls (for `piece` tools: the operation of every kind) */
  resource: string;
  operation: string;
  flow: ToolFlow;
  description: string;
  annotations: ToolAnnotations;
  /** on unless the operator turns it off; the others only when turned on (MCP_TOOLS) */
  onByDefault: boolean;
}

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
const DESTROY = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };

const tool = (
  name: string,
  resource: string,
  operation: string,
  title: string,
  hints: Omit<ToolAnnotations, 'title'>,
  description: string,
  onByDefault = true,
  flow: ToolFlow = 'call',
): AgentTool => ({ name, resource, operation, flow, description, annotations: { title, ...hints }, onByDefault });

/** The mailpiece kinds an agent may mail, with the words a model reads. */
export const MAIL_KINDS = [
  {
    resource: 'postcards',
    one: 'postcard',
    what: 'a postcard (front and back artwork: HTML, a template id or a file URL)',
  },
  { resource: 'letters', one: 'letter', what: 'a letter in an envelope (file: HTML, a template id or a PDF URL)' },
  { resource: 'self_mailers', one: 'self_mailer', what: 'a folded self mailer (inside and outside artwork)' },
  { resource: 'checks', one: 'check', what: 'a check drawn on a verified bank account (amount in dollars)' },
  { resource: 'snap_packs', one: 'snap_pack', what: 'a snap pack (inside and outside artwork)' },
] as const;

const mailTools = MAIL_KINDS.flatMap((kind): AgentTool[] => [
  tool(
    `preview_${kind.one}`,
    kind.resource,
    'create',
    `Preview a ${kind.one.replace('_', ' ')}`,
    { ...WRITE, idempotentHint: true },
    `Renders ${kind.what} as a TEST piece (free, never mailed) and returns its picture, a link to its PDF, ` +
      `the number of pieces and a confirmation_token. Show the picture to the user before sending. To mail it, ` +
      `call send_${kind.one} with exactly the same arguments plus that confirmation_token (valid 30 minutes, once).`,
    true,
    'preview',
  ),
  tool(
    `send_${kind.one}`,
    kind.resource,
    'create',
    `Send a ${kind.one.replace('_', ' ')}`,
    { ...WRITE, destructiveHint: true, openWorldHint: true },
    `Creates ${kind.what}. With a live key this prints and mails it and costs money: it needs the ` +
      `confirmation_token of a preview_${kind.one} call with exactly these arguments, and the account must allow ` +
      `agents to send live mail. The answer says until when the piece can still be cancelled.`,
    true,
    'send',
  ),
]);

export const AGENT_TOOLS: readonly AgentTool[] = [
  tool(
    'verify_us_address',
    'us_verifications',
    'verify',
    'Verify a US address',
    READ,
    'Checks and standardizes one US address (primary_line, city, state, zip_code; or address as one line). ' +
      'Answers its deliverability (deliverable, undeliverable, ...) and the corrected address. Use it before mailing.',
  ),
  tool(
    'verify_intl_address',
    'intl_verifications',
    'verify',
    'Verify an international address',
    READ,
    'Checks one address outside the US (primary_line, city, postal_code, country as ISO 3166 code) and answers its deliverability.',
  ),
  tool(
    'verify_us_addresses_bulk',
    'us_verifications',
    'verify_bulk',
    'Verify US addresses in bulk',
    READ,
    'Checks up to 20 US addresses at once (addresses: a list of address objects); one answer each, in order.',
  ),
  tool(
    'autocomplete_us_address',
    'us_autocompletions',
    'autocomplete',
    'Autocomplete a US address',
    READ,
    'Suggests complete US addresses for the start of one (address_prefix, with city, state or zip_code to narrow it).',
  ),
  tool(
    'lookup_zip_code',
    'us_zip_lookups',
    'lookup',
    'Look up a ZIP code',
    READ,
    'The cities and state of a 5-digit US ZIP code.',
  ),
  tool(
    'reverse_geocode_us_point',
    'us_reverse_geocode_lookups',
    'lookup',
    'Find the ZIP codes nearest a point',
    READ,
    'The US ZIP codes nearest a latitude and longitude, nearest first, with their distance in miles (size: how many, 1 to 50).',
  ),
  tool(
    'create_address',
    'addresses',
    'create',
    'Save an address',
    WRITE,
    'Saves an address to the address book and returns it with its id (adr_...), which mail can then name as to or from.',
  ),
  tool('get_address', 'addresses', 'retrieve', 'Get an address', READ, 'One saved address by its id (adr_...).'),
  tool(
    'list_addresses',
    'addresses',
    'list',
    'List addresses',
    READ,
    'Saved addresses, newest first (limit up to 100; before/after take the cursors of the previous answer).',
  ),
  tool('delete_address', 'addresses', 'delete', 'Delete an address', DESTROY, 'Deletes a saved address by id.', false),
  tool('get_template', 'templates', 'retrieve', 'Get a template', READ, 'One HTML template by its id (tmpl_...).'),
  tool(
    'list_templates',
    'templates',
    'list',
    'List templates',
    READ,
    'The HTML templates mail artwork can name by id (tmpl_...).',
  ),
  tool('create_template', 'templates', 'create', 'Create a template', WRITE, 'Saves an HTML template.', false),
  tool(
    'update_template',
    'templates',
    'update',
    'Update a template',
    WRITE,
    "Changes a template's description or published version.",
    false,
  ),
  tool('delete_template', 'templates', 'delete', 'Delete a template', DESTROY, 'Deletes a template by id.', false),
  ...mailTools,
  tool(
    'get_mailpiece',
    'postcards',
    'retrieve',
    'Get a mailpiece',
    READ,
    'One postcard, letter, self mailer, check or snap pack by its id (psc_, ltr_, sfm_, chk_ or ord_...): its status, send date, PDF and tracking.',
    true,
    'piece',
  ),
  tool(
    'list_mailpieces',
    'postcards',
    'list',
    'List mailpieces',
    READ,
    'Mailpieces of one kind (postcards, letters, self_mailers, checks or snap_packs), newest first.',
    true,
    'piece',
  ),
  tool(
    'cancel_mailpiece',
    'postcards',
    'cancel',
    'Cancel a mailpiece',
    DESTROY,
    'Cancels a mailpiece by id before its send date or cancellation window has passed; afterwards it cannot be stopped.',
    true,
    'piece',
  ),
  tool(
    'create_bank_account',
    'bank_accounts',
    'create',
    'Add a bank account',
    WRITE,
    'Adds a bank account checks can be drawn on.',
    false,
  ),
  tool(
    'get_bank_account',
    'bank_accounts',
    'retrieve',
    'Get a bank account',
    READ,
    'One bank account by id (bank_...).',
    false,
  ),
  tool(
    'list_bank_accounts',
    'bank_accounts',
    'list',
    'List bank accounts',
    READ,
    'The bank accounts checks can be drawn on.',
    false,
  ),
  tool(
    'delete_bank_account',
    'bank_accounts',
    'delete',
    'Delete a bank account',
    DESTROY,
    'Deletes a bank account by id.',
    false,
  ),
  tool(
    'verify_bank_account',
    'bank_accounts',
    'verify',
    'Verify a bank account',
    WRITE,
    'Verifies a bank account with the two micro-deposit amounts (cents).',
    false,
  ),
  tool(
    'create_billing_group',
    'billing_groups',
    'create',
    'Create a billing group',
    WRITE,
    'Adds a billing group mail can be billed to.',
    false,
  ),
  tool(
    'get_billing_group',
    'billing_groups',
    'retrieve',
    'Get a billing group',
    READ,
    'One billing group by id (bg_...).',
    false,
  ),
  tool(
    'list_billing_groups',
    'billing_groups',
    'list',
    'List billing groups',
    READ,
    'The billing groups of the account.',
    false,
  ),
  tool(
    'update_billing_group',
    'billing_groups',
    'update',
    'Update a billing group',
    WRITE,
    "Changes a billing group's name or description.",
    false,
  ),
];

/** The send tool a preview's confirmation token is for. */
export const sendToolOf = (previewTool: string): string => previewTool.replace(/^preview_/, 'send_');
