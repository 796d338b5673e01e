// The agent tools as the catalog declares them: names MCP clients accept, each naming an operation
// the catalog has, about twenty on by default with reading, mail and piece tools among them, and
// nothing that deletes or touches money's sources on unless the operator asks.
import test from 'ava';
import { AGENT_TOOLS, MAIL_KINDS } from '../../engine/catalog/agent-tools';
import { findResource } from '../../engine/catalog';

test('every tool name is at most 64 characters of [a-z0-9_], once', (t) => {
  for (const tool of AGENT_TOOLS) t.regex(tool.name, /^[a-z0-9_]{1,64}$/, tool.name);
  t.is(new Set(AGENT_TOOLS.map((tool) => tool.name)).size, AGENT_TOOLS.length);
});

test('every tool calls an operation of the catalog', (t) => {
  for (const tool of AGENT_TOOLS) {
    const operation = findResource(tool.resource)?.operations.find((o) => o.name === tool.operation);
    t.truthy(operation, `${tool.name}: ${tool.resource}.${tool.operation}`);
    t.true(tool.description.length > 20, `${tool.name} has a description for a model`);
  }
});

test('about twenty on by default: a preview and a send for each mail kind; no deletes, bank accounts or billing groups', (t) => {
  const on = AGENT_TOOLS.filter((tool) => tool.onByDefault);
  t.true(on.length >= 18 && on.length <= 26, `${on.length}`);
  for (const kind of MAIL_KINDS)
    for (const flow of ['preview', 'send'])
      t.truthy(
        on.find((tool) => tool.flow === flow && tool.resource === kind.resource),
        `${flow} ${kind.one}`,
      );
  for (const tool of on) {
    t.false(tool.operation === 'delete', tool.name);
    t.false(['bank_accounts', 'billing_groups'].includes(tool.resource), tool.name);
    t.false(tool.resource === 'templates' && !tool.annotations.readOnlyHint, tool.name);
  }
  t.true(on.filter((tool) => tool.flow === 'send').every((tool) => tool.annotations.destructiveHint));
});
