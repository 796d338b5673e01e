// Runs the built Printpost Trigger as n8n runs a webhook trigger: its webhook methods in n8n-core's
// HookContext (what n8n does when a workflow is activated or deactivated), and deliveries through its
// webhook() in n8n-core's WebhookContext, behind a small HTTP server standing in for n8n's webhook
// server (the request with n8n's on-demand raw body, the response with the express calls a node
// makes; a delivery the node does not answer itself gets n8n's 200 "Workflow was started").
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HookContext, WebhookContext, type PackageDirectoryLoader } from 'n8n-core';
import {
  Workflow,
  type IDataObject,
  type INode,
  type INodeParameters,
  type INodeType,
  type IWebhookData,
  type IWebhookDescription,
} from 'n8n-workflow';
import { PACKAGE, PackNodeTypes, makeAdditionalData, type PackCredentials } from './n8n-harness';

const TRIGGER_TYPE = `${PACKAGE}.printpostTrigger`;
const NODE_NAME = 'Printpost Trigger';

/** One request the stand-in webhook server handled: its answer, and the items it started the workflow with. */
export interface Delivery {
  status: number;
  answer: string;
  /** the emitted items' json; undefined when the node started nothing */
  emitted?: IDataObject[];
}

interface ExpressResponse extends http.ServerResponse {
  status(code: number): ExpressResponse;
  json(value: unknown): ExpressResponse;
  send(value: unknown): ExpressResponse;
}

/** The express calls a node makes on n8n's response, over Node's own. */
function expressResponse(res: http.ServerResponse): ExpressResponse {
  const response = res as ExpressResponse;
  response.status = (code) => {
    res.statusCode = code;
    return response;
  };
  response.json = (value) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(value));
    return response;
  };
  response.send = (value) => {
    res.end(typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value));
    return response;
  };
  return response;
}

/** n8n's request: the raw body read on demand (readRawBody), the JSON body parsed from it. */
function n8nRequest(req: http.IncomingMessage, raw: Buffer) {
  const request = req as http.IncomingMessage & Record<string, unknown>;
  request.readRawBody = async () => {
    request.rawBody = raw;
  };
  request.body = raw.length ? (JSON.parse(raw.toString('utf8')) as unknown) : {};
  request.query = {};
  request.params = {};
  return request;
}

export class TriggerHarness {
  readonly deliveries: Delivery[] = [];
  private readonly workflow: Workflow;
  private readonly node: INode;
  private readonly type: INodeType;
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly loader: PackageDirectoryLoader,
    private readonly credentials: PackCredentials,
    parameters: INodeParameters,
    private readonly server: http.Server,
    private readonly webhookBaseUrl: string,
    staticData: IDataObject,
  ) {
    this.node = {
      id: 'trigger-0',
      name: NODE_NAME,
      type: TRIGGER_TYPE,
      typeVersion: 1,
      position: [0, 0],
      parameters,
      webhookId: 'b7f0c6a2-9d3e-4a51-8c1f-2e6d4b9a7c30',
      credentials: { printpostApi: { id: '1', name: 'Printpost test' } },
    };
    const nodeTypes = new PackNodeTypes(loader);
    this.type = nodeTypes.getByName(TRIGGER_TYPE) as INodeType;
    this.workflow = new Workflow({
      id: 'trigger-test',
      name: 'printpost trigger test',
      nodes: [this.node],
      connections: {},
      nodeTypes,
      active: true,
      staticData,
      settings: { executionOrder: 'v1' },
    });
    server.on('request', (req, res) => void this.handle(req, res));
  }

  /** A trigger with these parameters (and static data, as n8n keeps it between runs), its server listening. */
  static async start(
    loader: PackageDirectoryLoader,
    credentials: PackCredentials,
    parameters: INodeParameters,
    staticData: IDataObject = {},
  ): Promise<TriggerHarness> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
    return new TriggerHarness(loader, credentials, parameters, server, base, staticData);
  }

  /** What the node keeps in its static data (the webhook's id and secret). */
  get staticData(): IDataObject {
    return this.workflow.getStaticData('node', this.node);
  }

  /** n8n's production URL of the node's webhook, where the engine delivers. */
  get webhookUrl(): string {
    return `${this.webhookBaseUrl}/${this.node.webhookId}/webhook`;
  }

  private additionalData() {
    return { ...makeAdditionalData(this.loader, this.credentials), webhookBaseUrl: this.webhookBaseUrl };
  }

  private webhookData(): IWebhookData {
    const description = this.type.description.webhooks?.[0] as IWebhookDescription;
    return {
      httpMethod: 'POST',
      node: this.node.name,
      path: `${this.node.webhookId}/webhook`,
      webhookDescription: description,
      workflowId: String(this.workflow.id),
      workflowExecuteAdditionalData: this.additionalData(),
    };
  }

  /** Runs one of the node's webhook methods as n8n does on activation ('activate') or deactivation. */
  async hook(method: 'checkExists' | 'create' | 'delete'): Promise<boolean> {
    const fn = this.type.webhookMethods?.default?.[method];
    if (!fn) throw new Error(`the trigger has no webhook method ${method}`);
    const context = new HookContext(
      this.workflow,
      this.node,
      this.additionalData(),
      'trigger',
      'activate',
      this.webhookData(),
    );
    return fn.call(context);
  }

  /** n8n's activation: create unless checkExists finds the webhook already there. */
  async activate(): Promise<void> {
    if (!(await this.hook('checkExists'))) await this.hook('create');
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const delivery: Delivery = { status: 0, answer: '' };
    const response = expressResponse(res);
    const end = res.end.bind(res) as (chunk?: unknown) => http.ServerResponse;
    res.end = ((chunk?: unknown) => {
      delivery.status = res.statusCode;
      if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) delivery.answer = chunk.toString();
      return end(chunk);
    }) as typeof res.end;
    try {
      if (new URL(String(req.url), this.webhookBaseUrl).href !== this.webhookUrl) {
        response.status(404).send('no such webhook');
        return;
      }
      const additionalData = { ...this.additionalData(), httpRequest: n8nRequest(req, raw), httpResponse: response };
      const context = new WebhookContext(
        this.workflow,
        this.node,
        additionalData as never,
        'webhook',
        this.webhookData(),
        [],
        null,
      );
      const result = await this.type.webhook!.call(context);
      if (!result.noWebhookResponse) {
        delivery.emitted = (result.workflowData?.[0] ?? []).map((item) => item.json);
        response.status(200).json({ message: 'Workflow was started' });
      }
    } catch (error) {
      response.status(500).json({ message: String(error) });
    } finally {
      this.deliveries.push(delivery);
      for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves once `count` deliveries have been handled, or fails after `ms`. */
  async waitForDeliveries(count: number, ms = 30_000): Promise<Delivery[]> {
    const until = Date.now() + ms;
    while (this.deliveries.length < count) {
      if (Date.now() > until) throw new Error(`${this.deliveries.length} of ${count} deliveries within ${ms} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 250);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.deliveries.slice(0, count);
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }
}
