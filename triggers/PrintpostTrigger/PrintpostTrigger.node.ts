// The Printpost Trigger: the shell written here, its event parameters in the generated
// descriptions/EventsDescription.ts (one event family a resource, from the catalog). On activation it
// registers a webhook for n8n's URL of this node (./webhooks.ts); each delivery is checked against the
// webhook's secret before its event starts the workflow (./receive.ts).
import {
  NodeConnectionTypes,
  type IHookFunctions,
  type INodeType,
  type INodeTypeDescription,
  type IWebhookFunctions,
  type IWebhookResponseData,
} from 'n8n-workflow';
import { eventProperties } from './descriptions/EventsDescription';
import { receiveEvent } from './receive';
import { createWebhook, deleteWebhook, webhookExists } from './webhooks';

export class PrintpostTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Printpost Trigger',
    name: 'printpostTrigger',
    icon: { light: 'file:printpost.svg', dark: 'file:printpost.dark.svg' },
    group: ['trigger'],
    version: 1,
    subtitle: '={{ ($parameter["events"] || []).join(", ") }}',
    description: 'Starts the workflow when Printpost events happen: mail created, rendered, mailed, delivered...',
    defaults: { name: 'Printpost Trigger' },
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'printpostApi', required: true }],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
    properties: [
      {
        displayName:
          "Events come in the mode of the credential's key: a test key's webhook gets test-mode events. Each event says whether it happens in test mode.",
        name: 'modeNotice',
        type: 'notice',
        default: '',
      },
      ...eventProperties,
      {
        displayName: 'Options',
        name: 'options',
        type: 'collection',
        placeholder: 'Add option',
        default: {},
        options: [
          {
            displayName: 'Output',
            name: 'output',
            type: 'options',
            options: [
              {
                name: 'Event',
                value: 'event',
                description: 'The whole event: its ID, type and date, and the object as it was in body',
              },
              {
                name: 'Object Only',
                value: 'body',
                description: "Only the event's body: the object as it was when the event happened",
              },
            ],
            default: 'event',
            description: 'What each event emits',
          },
        ],
      },
    ],
  };

  webhookMethods = {
    default: {
      async checkExists(this: IHookFunctions): Promise<boolean> {
        return await webhookExists.call(this);
      },
      async create(this: IHookFunctions): Promise<boolean> {
        return await createWebhook.call(this);
      },
      async delete(this: IHookFunctions): Promise<boolean> {
        return await deleteWebhook.call(this);
      },
    },
  };

  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    return await receiveEvent.call(this);
  }
}
