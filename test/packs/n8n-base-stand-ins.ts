// Stand-ins for the three n8n-nodes-base nodes the example workflow uses (Schedule Trigger, Wait, HTTP
// Request). n8n-nodes-base is not a dependency of this repository (it brings hundreds of packages for
// its other nodes), so these declare the same parameter names, as the base nodes' versions the
// workflow names take them, and do only what the example asks of them: the workflow's parameters and
// expressions still go through n8n's real Workflow, parameter resolution and WorkflowExecute.
import {
  NodeConnectionTypes,
  type IDataObject,
  type IExecuteFunctions,
  type INodeExecutionData,
  type INodeType,
  type INodeTypeDescription,
} from 'n8n-workflow';

const base = (
  name: string,
  version: number[],
  properties: INodeTypeDescription['properties'],
): INodeTypeDescription => ({
  displayName: name,
  name,
  group: ['transform'],
  version,
  description: `Stand-in for n8n-nodes-base.${name}`,
  defaults: { name },
  inputs: [NodeConnectionTypes.Main],
  outputs: [NodeConnectionTypes.Main],
  properties,
});

/** One item a tick, with the fields the Schedule Trigger gives (the subset a workflow is likely to read). */
const scheduleTrigger: INodeType = {
  description: {
    ...base(
      'scheduleTrigger',
      [1, 1.1, 1.2],
      [
        {
          displayName: 'Trigger Rules',
          name: 'rule',
          type: 'fixedCollection',
          typeOptions: { multipleValues: true },
          default: { interval: [{ field: 'days' }] },
          options: [
            {
              displayName: 'Trigger Interval',
              name: 'interval',
              values: [
                { displayName: 'Field', name: 'field', type: 'string', default: 'days' },
                { displayName: 'Expression', name: 'expression', type: 'string', default: '' },
              ],
            },
          ],
        },
      ],
    ),
    group: ['trigger', 'schedule'],
    inputs: [],
  },
  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const now = new Date();
    return [[{ json: { timestamp: now.toISOString(), Timezone: this.getTimezone() } }]];
  },
};

/** Waits `amount` `unit` in the process (n8n's Wait does so below 65 s), then passes its items on. */
const wait: INodeType = {
  description: base(
    'wait',
    [1, 1.1],
    [
      { displayName: 'Amount', name: 'amount', type: 'number', default: 1 },
      {
        displayName: 'Unit',
        name: 'unit',
        type: 'options',
        options: ['seconds', 'minutes', 'hours', 'days'].map((u) => ({ name: u, value: u })),
        default: 'hours',
      },
    ],
  ),
  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const seconds = { seconds: 1, minutes: 60, hours: 3_600, days: 86_400 } as const;
    const unit = this.getNodeParameter('unit', 0) as keyof typeof seconds;
    const ms = (this.getNodeParameter('amount', 0) as number) * seconds[unit] * 1_000;
    if (ms >= 65_000) throw new Error('the stand-in waits in the process only: give the test a shorter wait');
    await new Promise((resolve) => setTimeout(resolve, ms));
    return [this.getInputData()];
  },
};

/** Sends each item's request as the HTTP Request node's method, url and JSON body say; outputs the answers. */
const httpRequest: INodeType = {
  description: base(
    'httpRequest',
    [4, 4.1, 4.2],
    [
      {
        displayName: 'Method',
        name: 'method',
        type: 'options',
        options: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => ({ name: m, value: m })),
        default: 'GET',
      },
      { displayName: 'URL', name: 'url', type: 'string', default: '' },
      { displayName: 'Send Body', name: 'sendBody', type: 'boolean', default: false },
      {
        displayName: 'Specify Body',
        name: 'specifyBody',
        type: 'options',
        options: [
          { name: 'Using Fields Below', value: 'keypair' },
          { name: 'Using JSON', value: 'json' },
        ],
        default: 'keypair',
        displayOptions: { show: { sendBody: [true] } },
      },
      {
        displayName: 'JSON',
        name: 'jsonBody',
        type: 'json',
        default: '',
        displayOptions: { show: { sendBody: [true], specifyBody: ['json'] } },
      },
      { displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
    ],
  ),
  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const out: INodeExecutionData[] = [];
    for (let i = 0; i < this.getInputData().length; i++) {
      if (this.getNodeParameter('specifyBody', i, 'json') !== 'json')
        throw new Error('the stand-in sends JSON bodies only');
      const body = this.getNodeParameter('jsonBody', i, '') as string | IDataObject;
      const answer: unknown = await this.helpers.httpRequest({
        method: this.getNodeParameter('method', i) as 'POST',
        url: this.getNodeParameter('url', i) as string,
        body: typeof body === 'string' ? (JSON.parse(body) as IDataObject) : body,
        json: true,
      });
      out.push({ json: (answer ?? {}) as IDataObject, pairedItem: { item: i } });
    }
    return [out];
  },
};

/** By the type names a workflow file gives them. */
export const BASE_STAND_INS: Record<string, INodeType> = {
  'n8n-nodes-base.scheduleTrigger': scheduleTrigger,
  'n8n-nodes-base.wait': wait,
  'n8n-nodes-base.httpRequest': httpRequest,
};
