// The MCP server of the engine: one factory, served over stdio by `printpost mcp` (engine/faces/cli/mcp.ts)
// and over streamable HTTP at /mcp (./http.ts). Its tools come from the catalog (./tools.ts); each calls
// the engine's API as the caller (./api.ts), mail through a preview and a confirmed send (./mail.ts).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { mcpServer, mcpTypes } from '../../base/packages';
import type { AgentTool } from '../../catalog/agent-tools';
import type { EngineApi } from './api';
import { preview, send } from './mail';
import { answered, failed, ok, refusal, type ToolResult } from './results';
import { inputSchema, kindOfId, operationOf, resourceOf } from './tools';
import { isPlainObject } from '../../base/records';
import { messageOf } from '../../base/thrown';

const INSTRUCTIONS = `printpost prints and mails postcards, letters, self mailers, checks and snap packs, and verifies addresses.
Mail costs money and cannot be undone: always call the preview_ tool first, show the user the picture it returns,
and send only with the user's approval, passing exactly the previewed arguments and the confirmation_token.
A sent piece can be cancelled with cancel_mailpiece until the time its answer gives.`;

/** Fills a path template's `{name}` parameters from the arguments; returns the path and what is left. */
function fillPath(template: string, args: Record<string, unknown>): { path: string; rest: Record<string, unknown> } {
  const rest = { ...args };
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ''));
  });
  return { path, rest };
}

async function call(api: EngineApi, tool: AgentTool, args: Record<string, unknown>): Promise<ToolResult> {
  const operation = operationOf(tool);
  const { path, rest } = fillPath(operation.path, args);
  const write = operation.method === 'POST' || operation.method === 'PATCH';
  const answer = await api.request(operation.method, path, write ? { body: rest } : { query: rest });
  return ok(answer) ? answered(answer.body) : refusal(answer);
}

/** get, list or cancel a mailpiece of any kind. */
async function piece(api: EngineApi, tool: AgentTool, args: Record<string, unknown>): Promise<ToolResult> {
  if (tool.operation === 'list') {
    const { kind, ...query } = args;
    const answer = await api.request('GET', `/v1/${String(kind)}`, { query });
    return ok(answer) ? answered(answer.body) : refusal(answer);
  }
  const id = String(args.id ?? '');
  const kind = kindOfId(id);
  if (!kind) return failed(`${id} is not a mailpiece id`);
  const answer = await api.request(
    tool.operation === 'cancel' ? 'DELETE' : 'GET',
    `/v1/${kind.name}/${encodeURIComponent(id)}`,
  );
  return ok(answer) ? answered(answer.body) : refusal(answer);
}

const FLOWS = { call, piece, preview, send };

export function createMcpServer(api: EngineApi, tools: readonly AgentTool[]): Server {
  const { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } = mcpTypes();
  const server = new (mcpServer().Server)(
    { name: 'printpost', version: '0.1.0' },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  // checked once: a tool naming an operation the catalog lacks fails here, not at its first call
  const listed = tools.map((t) => {
    if (t.flow !== 'piece') operationOf(t, resourceOf(t));
    return { name: t.name, description: t.description, inputSchema: inputSchema(t), annotations: t.annotations };
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `no tool ${request.params.name}`);
    const args = isPlainObject(request.params.arguments) ? request.params.arguments : {};
    try {
      return await FLOWS[tool.flow](api, tool, args);
    } catch (error) {
      return failed(`the engine could not be reached: ${messageOf(error)}`);
    }
  });
  return server;
}
