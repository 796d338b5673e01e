// Proofs before postage. A preview creates the piece in TEST mode (free, never mailed; a live key acts
// in test mode for it), waits for its render and answers its thumbnail as an image, its PDF link, the
// piece count and a confirmation token the engine binds to the account, the send tool and the exact
// arguments. A send hands that token to the create (Printpost-Confirmation), which verifies it (a
// changed payload does not) and spends it in the piece's own commit, and uses it as the create's
// idempotency key; with a live key it cannot go without one. The engine holds every agent
// send to the account's agent limits and a send date after the cancellation window.
import { setTimeout as sleep } from 'node:timers/promises';
import { sendToolOf, type AgentTool } from '../../catalog/agent-tools';
import type { EngineApi } from './api';
import { answered, failed, ok, refusal, type ImageContent, type ToolResult } from './results';
import { resourceOf } from './tools';
import type { Resource } from '../../catalog/types';
import { COUNTRY_CODES, countryName, isCountryCode } from '../../catalog/countries';

const RENDER_WAIT_MS = 120_000;
/** The fields of a saved address a test piece needs, when a live key's preview names one by id. */
const ADDRESS_FIELDS = [
  'name',
  'company',
  'address_line1',
  'address_line2',
  'address_city',
  'address_state',
  'address_zip',
  'address_country',
  'phone',
  'email',
];
const TEST = { 'Printpost-Mode': 'test' };

type Piece = Record<string, unknown> & { id: string; status?: string; thumbnails?: { large?: string }[] };

/**
 * A live key's saved addresses and templates are not in test mode: the preview carries them inline
 * (an address's fields, a template's published HTML). A live bank account cannot be: a check's
 * preview with a live key names a test-mode bank account, or fails with the engine's not_found.
 */
async function inlineLiveReferences(
  api: EngineApi,
  resource: Resource,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  if (api.mode !== 'live') return args;
  const out = { ...args };
  for (const field of ['to', 'from']) {
    const id = out[field];
    if (typeof id !== 'string' || !id.startsWith('adr_')) continue;
    const answer = await api.request('GET', `/v1/addresses/${encodeURIComponent(id)}`);
    if (!ok(answer)) continue; // the create names the missing address itself
    const address = answer.body as Record<string, unknown>;
    const inline = Object.fromEntries(ADDRESS_FIELDS.filter((f) => address[f] != null).map((f) => [f, address[f]]));
    // a saved address answers its country by name (`UNITED STATES`); a create takes the code
    if (typeof inline.address_country === 'string') inline.address_country = countryCode(inline.address_country);
    out[field] = inline;
  }
  for (const { field } of resource.mailpiece?.artwork ?? []) {
    const id = out[field];
    if (typeof id !== 'string' || !id.startsWith('tmpl_')) continue;
    const answer = await api.request('GET', `/v1/templates/${encodeURIComponent(id)}`);
    const html = (answer.body as { published_version?: { html?: unknown } }).published_version?.html;
    if (ok(answer) && typeof html === 'string') out[field] = html;
  }
  return out;
}

const countryCode = (name: string): string =>
  isCountryCode(name) ? name : ([...COUNTRY_CODES].find((code) => countryName(code) === name) ?? name);

/** The test piece once rendered with its thumbnails, or failed; undefined if it takes too long. */
async function rendered(api: EngineApi, path: string): Promise<Piece | undefined> {
  const until = Date.now() + RENDER_WAIT_MS;
  while (Date.now() < until) {
    const answer = await api.request('GET', path, { headers: TEST });
    const piece = answer.body as Piece;
    if (ok(answer) && (piece.status === 'failed' || (piece.thumbnails?.length ?? 0) > 0)) return piece;
    await sleep(300);
  }
  return undefined;
}

export async function preview(api: EngineApi, tool: AgentTool, args: Record<string, unknown>): Promise<ToolResult> {
  const resource = resourceOf(tool);
  const created = await api.request('POST', `/v1/${resource.name}`, {
    body: await inlineLiveReferences(api, resource, args),
    headers: TEST,
  });
  if (!ok(created)) return refusal(created);
  const id = (created.body as Piece).id;
  const piece = await rendered(api, `/v1/${resource.name}/${id}`);
  if (!piece)
    return failed(`The preview ${id} did not render within ${RENDER_WAIT_MS / 1000} s: try get_mailpiece later.`);
  if (piece.status === 'failed')
    return failed(`The preview ${id} failed to render: ${JSON.stringify(piece.failure_reason ?? null)}`);
  const send = sendToolOf(tool.name);
  const confirmation = await api.request('POST', '/v1/agent/confirmations', {
    body: { tool: send, payload: args, preview_id: id },
  });
  if (!ok(confirmation)) return refusal(confirmation);
  const { token, expires_at } = confirmation.body as { token: string; expires_at: string };
  const thumbnail = piece.thumbnails?.[0]?.large;
  const image = thumbnail ? await api.download(thumbnail) : undefined;
  const images: ImageContent[] = image
    ? [{ type: 'image', data: image.bytes.toString('base64'), mimeType: image.type.split(';')[0] }]
    : [];
  return answered(
    {
      preview_id: id,
      kind: resource.name,
      pieces: 1,
      pages: piece.thumbnails?.length ?? 0,
      pdf_url: piece.url,
      thumbnail_url: thumbnail ?? null,
      confirmation_token: token,
      confirmation_expires_at: expires_at,
      send_with: send,
      mode_of_send: api.mode,
      note:
        api.mode === 'live'
          ? `Show the picture to the user. ${send} with exactly these arguments and this confirmation_token prints and mails it, for real.`
          : `Test key: ${send} creates a test piece, which is never mailed.`,
    },
    images,
  );
}

export async function send(api: EngineApi, tool: AgentTool, args: Record<string, unknown>): Promise<ToolResult> {
  const resource = resourceOf(tool);
  const { confirmation_token: token, ...payload } = args;
  const confirmed = typeof token === 'string' && token !== '';
  if (!confirmed && api.mode === 'live')
    return failed(
      `confirmation_required: live mail needs the confirmation_token of a ${tool.name.replace(/^send_/, 'preview_')} call with exactly these arguments. Preview first and show the user the picture.`,
    );
  // the engine verifies the token and spends it in the piece's own commit: a refused create leaves it
  // for the same send later, and a retry of a send that went through answers the same piece
  const created = await api.request('POST', `/v1/${resource.name}`, {
    body: payload,
    headers: confirmed ? { 'Idempotency-Key': token, 'Printpost-Confirmation': token } : {},
  });
  if (!ok(created)) return refusal(created);
  const piece = created.body as Piece & { send_date?: string; date_created?: string };
  const sendDate = piece.send_date ?? piece.date_created;
  return answered({
    id: piece.id,
    kind: resource.name,
    mode: api.mode,
    status: piece.status,
    send_date: sendDate,
    // the engine moves an agent's send date past the cancellation window: until then it can be stopped
    cancellable_until: sendDate,
    how_to_cancel: `cancel_mailpiece with id ${piece.id} before ${sendDate}`,
    pdf_url: piece.url,
  });
}
