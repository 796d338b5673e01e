// The node's description: the shell (name, icons, credentials, request defaults) and the properties
// generated from the catalog. The build writes it out as a literal (scripts/n8n-node-source.ts).
import { NodeConnectionTypes, type INodeTypeDescription } from 'n8n-workflow';
import type { PackResource } from '../common/pack-catalog';
import { nodeProperties } from './generate';
import { CREDENTIAL, type NodeRuntime } from './runtime';

export function nodeDescription(resources: readonly PackResource[], runtime: NodeRuntime): INodeTypeDescription {
  return {
    displayName: 'Printpost',
    name: 'printpost',
    icon: { light: 'file:printpost.svg', dark: 'file:printpost.dark.svg' },
    group: ['output'],
    version: 1,
    subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
    description: 'Print and mail, and verify addresses, with a Printpost engine',
    defaults: { name: 'Printpost' },
    usableAsTool: true,
    inputs: [NodeConnectionTypes.Main],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: CREDENTIAL, required: true }],
    requestDefaults: {
      baseURL: '={{ String($credentials.baseUrl).replace(/\\/+$/, "") }}',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      json: true,
      ignoreHttpStatusErrors: true,
    },
    properties: nodeProperties(resources, runtime),
  };
}
