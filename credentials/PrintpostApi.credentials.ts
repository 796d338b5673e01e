import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

export class PrintpostApi implements ICredentialType {
  name = 'printpostApi';

  displayName = 'Printpost API';

  icon = { light: 'file:printpost.svg', dark: 'file:printpost.dark.svg' } as const;

  documentationUrl = 'https://github.com/printpost/printpost#n8n';

  properties: INodeProperties[] = [
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description: 'A secret key (test_... or live_...) from the engine, or a publishable key for the verification operations',
    },
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: 'http://127.0.0.1:8000',
      required: true,
      description: 'Where the Printpost engine listens, without /v1',
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      auth: { username: '={{ $credentials.apiKey }}', password: '' },
    },
  };

  test: ICredentialTestRequest = {
    request: {
      baseURL: '={{ String($credentials.baseUrl).replace(/\\/+$/, "") }}',
      url: '/v1/addresses',
      qs: { limit: 1 },
    },
  };
}
