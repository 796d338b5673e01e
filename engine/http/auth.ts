// HTTP Basic with the key as user name (password empty); Bearer is accepted too.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../base/errors';
import type { Accounts, Caller } from '../domain/accounts/accounts';

/** Keys read from recent Authorization headers: a client sends the same one on every request. */
const keysOf = new Map<string, string | undefined>();

function readKey(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  if (keysOf.has(header)) return keysOf.get(header);
  const key = keyOf(header);
  // a key's header is under 100 characters: one past 200 is read each time, not kept
  if (header.length <= 200) {
    if (keysOf.size >= 1_000) keysOf.clear();
    keysOf.set(header, key);
  }
  return key;
}

function keyOf(header: string): string | undefined {
  const [scheme, value = ''] = header.trim().split(/\s+/, 2);
  if (/^basic$/i.test(scheme)) {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return (colon >= 0 ? decoded.slice(0, colon) : decoded).trim() || undefined;
  }
  if (/^bearer$/i.test(scheme)) return value || undefined;
  return undefined;
}

export async function authenticate(req: IncomingMessage, accounts: Accounts): Promise<Caller> {
  const key = readKey(req);
  if (!key)
    throw new ApiError(
      'unauthorized',
      'Missing authentication: use HTTP Basic with your API key as the user name.',
      401,
    );
  const caller = await accounts.authenticate(key);
  if (!caller)
    throw new ApiError(
      'invalid_api_key',
      'Your API key is not valid. Please sign up on the dashboard or use a key from its settings.',
      401,
    );
  return asked(req, caller);
}

/**
 * What the request's own headers add to its key: `Printpost-Agent` holds it to the account's agent
 * limits (the MCP server sends it; anyone may take limits on); `Printpost-Mode: test` lets a live secret
 * key act in test mode (an agent's preview: a free test piece), never the other way.
 */
function asked(req: IncomingMessage, caller: Caller): Caller {
  const agent = !caller.agent && req.headers['printpost-agent'] !== undefined;
  const test = caller.mode === 'live' && caller.kind === 'secret' && req.headers['printpost-mode'] === 'test';
  if (!agent && !test) return caller;
  return { ...caller, agent: caller.agent || agent, mode: test ? 'test' : caller.mode };
}
