// docs/examples/n8n-campaign-run.json, the README's importable n8n workflow: every node type and
// Printpost operation it names exists in the built package (by the node's own description, the
// parameters surviving n8n's own parameter resolution), and the workflow runs in n8n's WorkflowExecute
// against a real engine: the Schedule Trigger's tick sends the campaign, the run is read back once it
// has ended, and its report is posted to a local receiver. The base nodes are stand-ins
// (n8n-base-stand-ins.ts); the Printpost nodes are the built ones.
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import {
  NodeHelpers,
  type IConnections,
  type INode,
  type INodeProperties,
  type INodePropertyOptions,
  type INodeTypeDescription,
} from 'n8n-workflow';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { FROM, TO } from '../helpers/mail';
import { startReceiver } from '../helpers/receiver';
import { BASE_STAND_INS } from './n8n-base-stand-ins';
import { builtPacks } from './build-once';
import { executeWorkflow, loadPackage, PACKAGE, shutdownN8n } from './n8n-harness';

const FILE = path.resolve(__dirname, '../../docs/examples/n8n-campaign-run.json');

interface WorkflowFile {
  name: string;
  nodes: INode[];
  connections: IConnections;
}
const readWorkflow = () => JSON.parse(fs.readFileSync(FILE, 'utf8')) as WorkflowFile;
const ours = (node: INode) => node.type.startsWith(`${PACKAGE}.`);

let engine: TestEngine;
let loader: Awaited<ReturnType<typeof loadPackage>>;

test.before(async () => {
  engine = await startEngine();
  loader = await loadPackage((await builtPacks()).n8nDir);
});
test.after.always(async () => {
  await engine?.close();
  shutdownN8n();
});

const descriptionOf = (node: INode) =>
  loader.getNode(node.type.slice(PACKAGE.length + 1)).type.description as INodeTypeDescription;
const shownFor = (p: INodeProperties, params: INode['parameters']) =>
  Object.entries(p.displayOptions?.show ?? {}).every(([name, values]) => (values as unknown[]).includes(params[name]));
const optionValues = (p: INodeProperties | undefined): unknown[] =>
  (p?.options ?? []).map((o) => (o as INodePropertyOptions).value);

test('the workflow names only node types and operations that exist: a chain from the Schedule Trigger to an HTTP Request', (t) => {
  const file = readWorkflow();
  t.deepEqual(
    file.nodes.map((n) => n.type),
    [
      'n8n-nodes-base.scheduleTrigger',
      `${PACKAGE}.printpost`,
      'n8n-nodes-base.wait',
      `${PACKAGE}.printpost`,
      'n8n-nodes-base.httpRequest',
    ],
  );
  for (const [i, node] of file.nodes.entries()) {
    const next = file.nodes[i + 1];
    t.deepEqual(file.connections[node.name], next && { main: [[{ node: next.name, type: 'main', index: 0 }]] });
  }
  const operations: string[] = [];
  for (const node of file.nodes.filter(ours)) {
    const description = descriptionOf(node);
    t.true([description.version].flat().includes(node.typeVersion), node.name);
    const { resource, operation } = node.parameters;
    t.true(optionValues(description.properties.find((p) => p.name === 'resource')).includes(resource), node.name);
    const operationProperty = description.properties.find(
      (p) => p.name === 'operation' && shownFor(p, node.parameters),
    );
    t.true(optionValues(operationProperty).includes(operation), `${node.name}: ${String(operation)}`);
    operations.push(`${String(resource)}.${String(operation)}`);
    // n8n drops parameters its description does not show for the operation: every one given must stay
    const resolved = NodeHelpers.getNodeParameters(
      description.properties,
      node.parameters,
      false,
      false,
      node,
      description,
    );
    t.deepEqual(resolved, node.parameters, node.name);
    t.is(NodeHelpers.getNodeParametersIssues(description.properties, node, description), null, node.name);
  }
  t.deepEqual(operations, ['campaigns.send', 'campaign_runs.retrieve']);
});

test('run in n8n against a real engine: the tick sends the campaign and the ended run is posted onward', async (t) => {
  t.timeout(60_000);
  const api = client(engine.url, engine.keys.test);
  const ok = async (path: string, json: unknown) => {
    const reply = await api<{ id: string }>('POST', path, { json });
    if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  // a customer, not the campaign's sender (FROM), whom a run never mails
  await ok('/v1/addresses', { ...TO, metadata: { segment: 'workflow' } });
  const campaign = await ok('/v1/campaigns', {
    name: 'Workflow',
    schedule_type: 'immediate',
    use_type: 'marketing',
    audience: { metadata: { segment: 'workflow' } },
  });
  await ok('/v1/creatives', {
    campaign_id: campaign.id,
    resource_type: 'postcard',
    from: FROM,
    front: '<html><body>Hi</body></html>',
    back: '<html><body>Back</body></html>',
    details: {},
  });
  const receiver = await startReceiver();
  try {
    // what the README asks of whoever imports it: the credential, the campaign and the report URL;
    // and a wait the in-process stand-in can give
    const file = readWorkflow();
    const nodes = file.nodes.map((node): INode => {
      const parameters = { ...node.parameters };
      if (node.name === 'Send Campaign') parameters.id = { __rl: true, mode: 'id', value: campaign.id };
      if (node.name === 'Wait for the Run') Object.assign(parameters, { amount: 3, unit: 'seconds' });
      if (node.name === 'Post Run Report') parameters.url = `${receiver.url}/reports`;
      const credentials = ours(node) ? { printpostApi: { id: '1', name: 'Printpost API' } } : undefined;
      return { ...node, parameters, ...(credentials && { credentials }) };
    });
    const result = await executeWorkflow(
      loader,
      { apiKey: engine.keys.test, baseUrl: engine.url },
      nodes,
      file.connections,
      [{ json: {} }],
      BASE_STAND_INS,
    );
    t.is(result.error(), undefined, result.error()?.message);
    const [sent] = result.json('Send Campaign');
    t.like(sent, { object: 'campaign_run', campaign_id: campaign.id, trigger: 'manual' });

    const [posted] = await receiver.waitFor(1);
    t.is(posted.headers['content-type'], 'application/json');
    const report = JSON.parse(posted.body) as Record<string, unknown>;
    t.like(report, {
      id: sent.id,
      object: 'campaign_run',
      campaign_id: campaign.id,
      status: 'completed',
      recipients: 1,
      pieces_created: 1,
      skipped_count: 0,
    });
    t.deepEqual(report, result.json('Get Run Report')[0], 'the report is the run as read back');
  } finally {
    await receiver.close();
  }
});
