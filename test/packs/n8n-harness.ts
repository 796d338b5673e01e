// Runs real n8n workflows headless: the built package loaded by n8n-core's PackageDirectoryLoader,
// executed by n8n-core's WorkflowExecute (RoutingNode for the declarative node), credentials applied
// the way n8n's credentials helper applies a generic credential type.
process.env.NODE_ENV ??= 'test';
import { ExecutionLifecycleHooks, LoadOptionsContext, PackageDirectoryLoader, WorkflowExecute } from 'n8n-core';
import {
  ICredentialsHelper,
  NodeConnectionTypes,
  Workflow,
  createDeferredPromise,
  type ICredentialDataDecryptedObject,
  type ICredentialType,
  type ICredentials,
  type IDataObject,
  type IHttpRequestOptions,
  type INode,
  type INodeExecutionData,
  type INodeParameters,
  type INodeType,
  type INodeTypes,
  type IRun,
  type IRunExecutionData,
  type IVersionedNodeType,
  type IWorkflowExecuteAdditionalData,
  type IConnections,
} from 'n8n-workflow';

export const PACKAGE = 'n8n-nodes-printpost';

/** The Printpost API credential's fields, as a saved credential holds them. */
export type PackCredentials = {
  apiKey: string;
  baseUrl: string;
  serviceVersion?: string;
};

const NODE_TYPE = `${PACKAGE}.printpost`;

export async function loadPackage(dir: string) {
  const loader = new PackageDirectoryLoader(dir);
  await loader.loadAll();
  return loader;
}

export class PackNodeTypes implements INodeTypes {
  constructor(
    private readonly loader: PackageDirectoryLoader,
    private readonly extra: Record<string, INodeType> = {},
  ) {}
  getByName(nodeType: string): INodeType | IVersionedNodeType {
    return this.extra[nodeType] ?? this.loader.getNode(nodeType.replace(`${PACKAGE}.`, '')).type;
  }
  getByNameAndVersion(nodeType: string): INodeType {
    return this.getByName(nodeType) as INodeType;
  }
  getKnownTypes(): IDataObject {
    return {};
  }
}

/** Resolves `={{ $credentials.x }}` in a generic credential's properties, as n8n's helper does. */
function resolveCredentialValue(value: unknown, credentials: ICredentialDataDecryptedObject): unknown {
  if (typeof value !== 'string' || !value.startsWith('=')) return value;
  const expr = /^=\{\{\s*\$credentials\.(\w+)\s*\}\}$/.exec(value);
  if (!expr) throw new Error(`unsupported credential expression in test harness: ${value}`);
  return credentials[expr[1]];
}

class PackCredentialsHelper extends ICredentialsHelper {
  constructor(
    private readonly loader: PackageDirectoryLoader,
    private readonly data: Record<string, ICredentialDataDecryptedObject>,
  ) {
    super();
  }
  getParentTypes(): string[] {
    return [];
  }
  async authenticate(
    credentials: ICredentialDataDecryptedObject,
    typeName: string,
    requestOptions: IHttpRequestOptions,
  ): Promise<IHttpRequestOptions> {
    const type = this.loader.getCredential(typeName).type as ICredentialType;
    const auth = type.authenticate;
    if (typeof auth === 'function') return auth(credentials, requestOptions);
    if (!auth || auth.type !== 'generic') return requestOptions;
    const options = { ...requestOptions } as IHttpRequestOptions & Record<string, unknown>;
    for (const [outer, inner] of Object.entries(auth.properties)) {
      const resolved: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(inner as Record<string, unknown>))
        resolved[k] = resolveCredentialValue(v, credentials);
      options[outer] = { ...((options[outer] as object) ?? {}), ...resolved };
    }
    return options;
  }
  async preAuthentication() {
    return undefined;
  }
  async getCredentials(): Promise<ICredentials> {
    throw new Error('not used');
  }
  async getDecrypted(
    _a: IWorkflowExecuteAdditionalData,
    _n: unknown,
    type: string,
  ): Promise<ICredentialDataDecryptedObject> {
    const data = this.data[type];
    if (!data) throw new Error(`no credentials of type ${type}`);
    return data;
  }
  async updateCredentials() {}
  async updateCredentialsOauthTokenData() {}
  getCredentialsProperties(type: string) {
    return (this.loader.getCredential(type).type as ICredentialType).properties;
  }
}

export function makeAdditionalData(
  loader: PackageDirectoryLoader,
  credentials: PackCredentials,
  hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
  return {
    credentialsHelper: new PackCredentialsHelper(loader, { printpostApi: credentials }),
    hooks,
    executionId: 'test-execution',
    currentNodeExecutionIndex: 0,
    restApiUrl: 'http://127.0.0.1/rest',
    instanceBaseUrl: 'http://127.0.0.1/',
    formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
    webhookBaseUrl: 'http://127.0.0.1/webhook',
    webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
    webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
    variables: {},
    logAiEvent: () => {},
    setExecutionStatus: () => {},
    sendDataToUI: () => {},
  } as Partial<IWorkflowExecuteAdditionalData> as IWorkflowExecuteAdditionalData;
}

/** Runs one of the node's list searches (the resourceLocator pickers) in n8n's LoadOptionsContext. */
export async function listSearch(
  loader: PackageDirectoryLoader,
  credentials: PackCredentials,
  method: string,
  filter?: string,
  paginationToken?: string,
) {
  const node: INode = {
    id: 'node-0',
    name: 'Printpost',
    type: NODE_TYPE,
    typeVersion: 1,
    position: [0, 0],
    parameters: {},
    credentials: { printpostApi: { id: '1', name: 'Printpost test' } },
  };
  const nodeTypes = new PackNodeTypes(loader);
  const workflow = new Workflow({ id: 'test', nodes: [node], connections: {}, nodeTypes, active: false });
  const context = new LoadOptionsContext(workflow, node, makeAdditionalData(loader, credentials), 'parameters.id');
  const type = nodeTypes.getByName(NODE_TYPE) as INodeType;
  const fn = type.methods?.listSearch?.[method];
  if (!fn) throw new Error(`no list search ${method}`);
  return fn.call(context, filter, paginationToken);
}

export interface StepSpec {
  name: string;
  /** the node type; the Printpost node unless given */
  type?: string;
  parameters: INodeParameters;
  continueOnFail?: boolean;
  onError?: INode['onError'];
}

export interface RunResult {
  run: IRun;
  /** the main outputs of a node: [output][item] */
  outputs(nodeName: string): INodeExecutionData[][];
  /** the json of the first output's items */
  json(nodeName: string): IDataObject[];
  error(): Error | undefined;
}

/**
 * Executes steps chained in order (each step's first output feeds the next) with n8n's WorkflowExecute.
 * `input` are the items the first step receives.
 */
export async function runWorkflow(
  loader: PackageDirectoryLoader,
  credentials: PackCredentials,
  steps: StepSpec[],
  input: IDataObject[] = [{}],
  extraTypes: Record<string, INodeType> = {},
): Promise<RunResult> {
  return runWorkflowItems(
    loader,
    credentials,
    steps,
    input.map((json) => ({ json })),
    extraTypes,
  );
}

/** As runWorkflow, the first step receiving whole items (json and binary). */
export async function runWorkflowItems(
  loader: PackageDirectoryLoader,
  credentials: PackCredentials,
  steps: StepSpec[],
  items: INodeExecutionData[],
  extraTypes: Record<string, INodeType> = {},
): Promise<RunResult> {
  const nodes: INode[] = steps.map((s, i) => ({
    id: `node-${i}`,
    name: s.name,
    type: s.type ?? NODE_TYPE,
    typeVersion: 1,
    position: [i * 200, 0],
    parameters: s.parameters,
    credentials: { printpostApi: { id: '1', name: 'Printpost test' } },
    ...(s.continueOnFail && { continueOnFail: true }),
    ...(s.onError && { onError: s.onError }),
  }));
  const connections: IConnections = {};
  for (let i = 0; i < steps.length - 1; i++) {
    connections[steps[i].name] = { main: [[{ node: steps[i + 1].name, type: 'main', index: 0 }]] };
  }
  return executeWorkflow(loader, credentials, nodes, connections, items, extraTypes);
}

/** Executes `nodes` as `connections` join them with n8n's WorkflowExecute, `items` entering the first node. */
export async function executeWorkflow(
  loader: PackageDirectoryLoader,
  credentials: PackCredentials,
  nodes: INode[],
  connections: IConnections,
  items: INodeExecutionData[],
  extraTypes: Record<string, INodeType> = {},
): Promise<RunResult> {
  const workflow = new Workflow({
    id: 'test',
    name: 'printpost test',
    nodes,
    connections,
    nodeTypes: new PackNodeTypes(loader, extraTypes),
    active: false,
    settings: { executionOrder: 'v1' },
  });

  const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
    id: 'test',
    name: 'printpost test',
    nodes,
    connections,
    active: false,
    settings: {},
  } as never);
  const done = createDeferredPromise<IRun>();
  hooks.addHandler('workflowExecuteAfter', (fullRunData) => done.resolve(fullRunData));

  const additionalData = makeAdditionalData(loader, credentials, hooks);

  const runExecutionData: IRunExecutionData = {
    version: 1,
    startData: {},
    resultData: { runData: {} },
    executionData: {
      contextData: {},
      metadata: {},
      waitingExecution: {},
      waitingExecutionSource: null,
      nodeExecutionStack: [{ node: nodes[0], data: { main: [items] }, source: null }],
    },
  } as unknown as IRunExecutionData;

  const execute = new WorkflowExecute(additionalData, 'manual', runExecutionData);
  await execute.processRunExecutionData(workflow);
  const run = await done.promise;
  const outputs = (nodeName: string) => {
    const task = run.data.resultData.runData[nodeName]?.[0];
    if (!task) throw new Error(`node ${nodeName} did not run: ${run.data.resultData.error?.message ?? 'no error'}`);
    return (task.data?.main ?? []).map((items) => items ?? []);
  };
  return {
    run,
    outputs,
    json: (nodeName) => (outputs(nodeName)[0] ?? []).map((i) => i.json),
    error: () => run.data.resultData.error as Error | undefined,
  };
}

const CREDENTIAL_TEST_TYPE = 'credentialTest';

/**
 * Runs the credential's test request the way n8n's CredentialsTester does: a stand-in node (no
 * request defaults, like the NoOp node it uses) with one `Temp` property routed by the test request.
 * The step fails, as the tester does, when the request answers with an error status.
 */
export async function testCredential(loader: PackageDirectoryLoader, credentials: PackCredentials): Promise<RunResult> {
  const request = (loader.getCredential('printpostApi').type as ICredentialType).test?.request;
  if (!request) throw new Error('the credential has no test request');
  const type: INodeType = {
    description: {
      displayName: 'Credential Test',
      name: CREDENTIAL_TEST_TYPE,
      group: ['transform'],
      version: 1,
      description: "Stand-in for n8n's credentials tester",
      defaults: { name: 'Credential Test' },
      inputs: [NodeConnectionTypes.Main],
      outputs: [NodeConnectionTypes.Main],
      credentials: [{ name: 'printpostApi', required: true }],
      properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request }, default: '' }],
    },
  };
  return runWorkflow(loader, credentials, [{ name: 'Test', type: CREDENTIAL_TEST_TYPE, parameters: {} }], [{}], {
    [CREDENTIAL_TEST_TYPE]: type,
  });
}

/** n8n-core keeps an SSH clients sweep timer alive once a node ran; stop it so the test process exits. */
export function shutdownN8n() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Container } = require('@n8n/di') as typeof import('@n8n/di');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager') as {
    SSHClientsManager: import('@n8n/di').Constructable<{ onShutdown(): void }>;
  };
  if (Container.has(SSHClientsManager)) Container.get(SSHClientsManager).onShutdown();
}
