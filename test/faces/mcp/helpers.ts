// An MCP client as a desktop app or n8n holds one: the SDK's own Client, over stdio (spawning
// `printpost mcp`) or streamable HTTP (the engine's /mcp), and readers of what its tools answer.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BIN } from '../../helpers/cli';

export type McpClient = Client;

/** A request's patience: a spawned `printpost mcp` on a busy machine takes its time to start and to render. */
export const PATIENCE = { timeout: 180_000 };

export interface ToolAnswer {
  isError?: boolean;
  content: { type: string; text?: string; data?: string; mimeType?: string }[];
}

export async function overHttp(engineUrl: string, key: string): Promise<Client> {
  const client = new Client({ name: 'printpost-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${engineUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
    PATIENCE,
  );
  return client;
}

export async function overStdio(engineUrl: string, key: string, env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'printpost-test', version: '1.0.0' });
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  await client.connect(
    new StdioClientTransport({
      command: BIN,
      args: ['mcp'],
      env: { ...inherited, PRINTPOST_URL: engineUrl, PRINTPOST_API_KEY: key, ...env },
      stderr: 'pipe',
    }),
    PATIENCE,
  );
  return client;
}

export async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args }, undefined, PATIENCE)) as ToolAnswer;
}

/** The JSON of the answer's first text. */
export function json<T = Record<string, unknown>>(answer: ToolAnswer): T {
  const text = answer.content.find((c) => c.type === 'text')?.text;
  if (answer.isError || text === undefined) throw new Error(`tool refused: ${text ?? JSON.stringify(answer)}`);
  return JSON.parse(text) as T;
}

export const errorText = (answer: ToolAnswer): string =>
  answer.isError
    ? (answer.content.find((c) => c.type === 'text')?.text ?? '')
    : `not an error: ${JSON.stringify(answer)}`;

export interface Preview {
  preview_id: string;
  pieces: number;
  pdf_url: string;
  confirmation_token: string;
  confirmation_expires_at: string;
}

export const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
