// `printpost mcp`: the MCP server over stdio, for desktop AI clients that start it themselves. It calls
// a running engine's API (PRINTPOST_URL) with PRINTPOST_API_KEY, so the engine's authentication, rate
// limits and agent limits hold for it as for any client. stdout carries the protocol only.
import { mcpStdio } from '../../base/packages';
import { ConfigError, loadConfig } from '../../platform/config';
import { keyShape } from '../../domain/accounts/keys';
import { engineApi } from '../mcp/api';
import { createMcpServer } from '../mcp/server';
import { enabledTools } from '../mcp/tools';

export const MCP_HELP = {
  mcp: `Usage: PRINTPOST_API_KEY=KEY [PRINTPOST_URL=http://127.0.0.1:8000] printpost mcp

Serves the engine's AI agent tools (MCP) over stdin and stdout, for a desktop client that starts it
(Claude Desktop and the like: see the README's section for agents). It calls the engine at
PRINTPOST_URL (default: http://127.0.0.1:PORT) with the secret key PRINTPOST_API_KEY. MCP_TOOLS turns
tools on or off. The same tools answer at /mcp on the engine over streamable HTTP.`,
};

export async function mcp(): Promise<void> {
  const config = loadConfig();
  const key = process.env.PRINTPOST_API_KEY?.trim() ?? '';
  const shape = keyShape(key);
  if (!shape || shape.kind !== 'secret')
    throw new ConfigError('PRINTPOST_API_KEY must be a secret API key (test_... or live_...)');
  const url = process.env.PRINTPOST_URL?.trim() || `http://127.0.0.1:${config.port}`;
  const server = createMcpServer(engineApi(url, `Bearer ${key}`, shape.mode), enabledTools(config.mcpTools));
  const transport = new (mcpStdio().StdioServerTransport)();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
