// Proofs before postage: a mail preview hands the agent a confirmation token bound to the account, the
// send tool and the exact payload (the SHA-256 of its canonical JSON), valid 30 minutes; the send
// redeems it once. The token carries only its expiry and a nonce: the account, tool and payload are
// bound by its HMAC (under a secret every process sharing the database holds), so a changed payload
// makes a token that no longer verifies, and its use is recorded by its hash, in the commit of the
// piece it confirms (so a create refused after the check, live not allowed or the day's cap reached,
// leaves the token for the same send once the operator allows it).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../base/errors';
import { AGENT_TOOLS } from '../../catalog/agent-tools';
import type { Store } from '../../store/store';
import type { ConfirmationUse } from '../../store/commit';

export const CONFIRMATION_TTL_MS = 30 * 60_000;
const PREFIX = 'cfm_';

/** JSON with every object's keys sorted: one text for one value, however its keys were ordered. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const payloadHash = (payload: unknown): string =>
  createHash('sha256').update(canonicalJson(payload)).digest('hex');

export interface Confirmation {
  token: string;
  expires_at: string;
}

const refused = (code: string, message: string, status = 403) => new ApiError(code, message, status);

export class Confirmations {
  private secret?: Promise<string>;

  constructor(private readonly store: Pick<Store, 'engineSecrets' | 'agentConfirmations'>) {}

  private key(): Promise<string> {
    this.secret ??= this.store.engineSecrets.keepFirstSecret('agent_confirmations', randomBytes(32).toString('hex'));
    return this.secret;
  }

  private async mac(accountId: string, tool: string, payload: unknown, expires: number, nonce: string) {
    const text = `${accountId}\n${tool}\n${payloadHash(payload)}\n${expires}\n${nonce}`;
    return createHmac('sha256', await this.key())
      .update(text)
      .digest('base64url');
  }

  /** A token for sending `payload` through `tool` from this account, until 30 minutes from `now`. */
  async issue(accountId: string, tool: string, payload: unknown, now = Date.now()): Promise<Confirmation> {
    const expires = now + CONFIRMATION_TTL_MS;
    const nonce = randomBytes(9).toString('base64url');
    const mac = await this.mac(accountId, tool, payload, expires, nonce);
    return { token: `${PREFIX}${expires.toString(36)}.${nonce}.${mac}`, expires_at: new Date(expires).toISOString() };
  }

  /**
   * Checks the token for this send (well formed, for this account, tool and payload, not expired) and
   * answers its use, for the send's own commit to record: a send refused after this leaves it unused.
   */
  async verify(
    accountId: string,
    tool: string,
    payload: unknown,
    token: string,
    now = Date.now(),
  ): Promise<ConfirmationUse> {
    const [head, nonce, mac] = token.startsWith(PREFIX) ? token.slice(PREFIX.length).split('.') : [];
    const expires = parseInt(head ?? '', 36);
    if (!nonce || !mac || !Number.isSafeInteger(expires))
      throw refused('confirmation_invalid', 'This is not a confirmation token: preview the mail first.', 422);
    const expected = Buffer.from(await this.mac(accountId, tool, payload, expires, nonce));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw refused(
        'confirmation_mismatch',
        `This confirmation token is not for this payload: the arguments changed since the preview (or it was issued for another tool or account). Preview again and send exactly what was previewed.`,
      );
    if (now >= expires)
      throw refused('confirmation_expired', 'This confirmation token has expired: preview the mail again.');
    const tokenHash = createHash('sha256').update(token).digest('hex');
    return { used: { tokenHash, accountId, tool, usedAt: new Date(now).toISOString() }, refusal: usedAlready };
  }

  /** Uses the token for this send, once, on its own (not in a send's commit). */
  async redeem(accountId: string, tool: string, payload: unknown, token: string, now = Date.now()): Promise<void> {
    const use = await this.verify(accountId, tool, payload, token, now);
    if (!(await this.store.agentConfirmations.useConfirmationOnce(use.used))) throw use.refusal();
  }
}

const usedAlready = () =>
  refused('confirmation_used', 'This confirmation token has been used already: each preview confirms one send.', 409);

const held = new WeakMap<object, Confirmations>();

/** The process's confirmations over this store, one a store, so its secret is read once. */
export function confirmationsOf(store: Pick<Store, 'engineSecrets' | 'agentConfirmations'>): Confirmations {
  let confirmations = held.get(store);
  if (!confirmations) {
    confirmations = new Confirmations(store);
    held.set(store, confirmations);
  }
  return confirmations;
}

/** The send tool whose confirmation a create of this kind carries (`send_postcard` for postcards). */
export function sendToolFor(resource: string): string {
  const tool = AGENT_TOOLS.find((t) => t.flow === 'send' && t.resource === resource);
  if (!tool) throw new ApiError('invalid', `no AI agent tool sends ${resource}: a confirmation cannot be for it`, 422);
  return tool.name;
}

/** A confirmation token given to a create (the Printpost-Confirmation header) and the body it confirms, as sent. */
export interface SendConfirmation {
  token: string;
  payload: unknown;
}

/** Verifies the confirmation of a create of `resource`: its use, for the piece's commit to record. */
export const confirmedSend = (
  store: Pick<Store, 'engineSecrets' | 'agentConfirmations'>,
  accountId: string,
  resource: string,
  confirmation: SendConfirmation,
): Promise<ConfirmationUse> =>
  confirmationsOf(store).verify(accountId, sendToolFor(resource), confirmation.payload, confirmation.token);
