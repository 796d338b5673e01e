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
      description:
        'A secret key (test_... or live_...) from the engine for every operation, or a publishable key (test_pub_... or live_pub_...) for US and international verification and US autocomplete only',
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

  // US autocomplete: allowed to secret and publishable keys alike (a list of addresses would
  // refuse a publishable key with 403), answered without a vendor in test mode, 401 for a bad key.
  test: ICredentialTestRequest = {
    request: {
      baseURL: '={{ String($credentials.baseUrl).replace(/\\/+$/, "") }}',
      url: '/v1/us_autocompletions',
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: { address_prefix: '1' },
      json: true,
    },
  };
}
