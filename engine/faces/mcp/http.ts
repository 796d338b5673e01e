// The MCP server over streamable HTTP at /mcp, on the engine's own port: authenticated as the API is
// (the key as Bearer or Basic; publishable keys refused), stateless (a server a request). Bound to
// loopback, it answers only requests whose Host and Origin name loopback too: a web page that got its
// name resolved to 127.0.0.1 (DNS rebinding) cannot drive it from a browser. No CORS header either:
// it is for agents' clients, not for pages of other origins (engine/http/app.ts `withoutCors`).
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import { mcpStreamableHttp } from '../../base/packages';
import { ApiError } from '../../base/errors';
import type { Services } from '../../domain/services';
import { authenticate } from '../../http/auth';
import { engineApi } from './api';
import { createMcpServer } from './server';
import { enabledTools } from './tools';

export const MCP_PATH = '/mcp';
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export const isLoopbackHost = (host: string): boolean => LOOPBACK_NAMES.has(host) || host.startsWith('127.');

function hostnameOf(value: string): string | undefined {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/** Host and Origin must name loopback when the engine listens only there. */
function refuseRebinding(req: IncomingMessage): void {
  const host = hostnameOf(req.headers.host ?? '');
  const origin = req.headers.origin;
  const originHost = origin === undefined ? undefined : hostnameOf(origin);
  if (!host || !isLoopbackHost(host) || (origin !== undefined && (!originHost || !isLoopbackHost(originHost))))
    throw new ApiError(
      'forbidden',
      'This engine listens on loopback: /mcp answers only requests whose Host and Origin name localhost.',
      403,
    );
}

/** The engine as its own client: the address and port this request came in on. */
function selfUrl(req: IncomingMessage): string {
  const address = (req.socket.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const host = address === '::' || address === '0.0.0.0' ? '127.0.0.1' : address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${req.socket.localPort}`;
}

export function mcpEndpoint(services: Services): Koa.Middleware {
  const tools = enabledTools(services.config.mcpTools);
  const loopbackOnly = isLoopbackHost(services.config.host);
  return async (ctx, next) => {
    if (ctx.path !== MCP_PATH) return next();
    ctx.state.route = `${ctx.method} ${MCP_PATH}`;
    if (loopbackOnly) refuseRebinding(ctx.req);
    // Stateless, this server has nothing to push: a GET stream would stay open doing nothing and hold
    // every SIGTERM for the whole drain. The MCP spec lets such a server answer GET with 405.
    if (ctx.method === 'GET')
      throw new ApiError(
        'method_not_allowed',
        'This MCP server offers no server-initiated stream: POST JSON-RPC messages to /mcp.',
        405,
        { Allow: 'POST, DELETE' },
      );
    const caller = await authenticate(ctx.req, services.accounts);
    if (caller.kind !== 'secret')
      throw new ApiError('publishable_key_not_allowed', 'The MCP server needs a secret API key.', 403);
    const server = createMcpServer(engineApi(selfUrl(ctx.req), ctx.get('authorization'), caller.mode), tools);
    const transport = new (mcpStreamableHttp().StreamableHTTPServerTransport)({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    ctx.respond = false;
    ctx.res.on('close', () => void server.close());
    await transport.handleRequest(ctx.req, ctx.res);
  };
}
