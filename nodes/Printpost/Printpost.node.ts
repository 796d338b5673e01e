// The Printpost node: the shell written here, its resources, operations and fields in the generated
// description files (./descriptions, one a resource, regenerated from the catalog by
// scripts/n8n-descriptions.ts). The published package carries these same files.
import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';
import { packCatalog } from '../common/catalog-data';
import { nodeProperties } from './descriptions';
import { listSearchMethods } from './runtime';

export class Printpost implements INodeType {
  description: INodeTypeDescription = {
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
    credentials: [{ name: 'printpostApi', required: true }],
    requestDefaults: {
      baseURL: '={{ String($credentials.baseUrl).replace(/\\/+$/, "") }}',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      json: true,
      ignoreHttpStatusErrors: true,
    },
    properties: nodeProperties,
  };

  methods = {
    listSearch: listSearchMethods(packCatalog),
  };
}
