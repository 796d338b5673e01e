// The Zapier pack's entry: the app Zapier loads, assembled from the three roles (the authentication
// from credentials/, the actions and dropdown lists from nodes/zapier, the instant triggers from
// triggers/zapier). It is the one file of nodes/ that may import a trigger, and nothing imports it but
// the build, its scripts and the tests; the n8n pack's entry is the package.json scripts/build-packs.ts
// writes, which lists its credential, node and trigger. app-definition.json beside it is this app as
// Zapier serializes it, committed and checked against the catalog (`npm run build:n8n` writes it).
import { addAuth, authentication, handleErrors } from '../../credentials/zapier-authentication';
import { packCatalog } from '../common/catalog-data';
import type { PackResource } from '../common/pack-catalog';
import { zapierActions } from './actions';
import { hookTriggers } from '../../triggers/zapier/hooks';

// Replaced by the build with the pack's version.
declare const PACK_VERSION: string | undefined;
const version = typeof PACK_VERSION === 'string' ? PACK_VERSION : '0.1.0';

export function buildApp(resources: readonly PackResource[], platformVersion: string) {
  const { listTriggers, searches, creates, searchOrCreates } = zapierActions(resources);
  return {
    version,
    platformVersion,
    authentication,
    beforeRequest: [addAuth],
    afterResponse: [handleErrors],
    triggers: { ...hookTriggers(resources), ...listTriggers },
    searches,
    creates,
    searchOrCreates,
    resources: {},
  };
}

// the core the app runs on says which platform version it is for
// eslint-disable-next-line @typescript-eslint/no-require-imports
const core: { version: string } = require('zapier-platform-core');
export const app = buildApp(packCatalog, core.version);
