import type {
  ICredentialDataDecryptedObject,
  ICredentialTestRequest,
  ICredentialType,
  IHttpRequestOptions,
  INodeProperties,
} from 'n8n-workflow';

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
    {
      displayName: 'Service-Version',
      name: 'serviceVersion',
      type: 'string',
      default: '',
      placeholder: '2024-01-01',
      description:
        "The API version (YYYY-MM-DD) every request asks for, sent as the Service-Version header; empty uses the account's own. Some fields need a later one: a letter's size (us_legal) needs 2024-01-01 or later.",
    },
  ];

  // A function rather than a generic header template: the header goes out only when a version is set,
  // so an empty field leaves the account's version in force.
  async authenticate(
    credentials: ICredentialDataDecryptedObject,
    requestOptions: IHttpRequestOptions,
  ): Promise<IHttpRequestOptions> {
    const version = typeof credentials.serviceVersion === 'string' ? credentials.serviceVersion.trim() : '';
    return {
      ...requestOptions,
      auth: { username: String(credentials.apiKey ?? ''), password: '' },
      headers: { ...requestOptions.headers, ...(version && { 'Service-Version': version }) },
    };
  }

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
