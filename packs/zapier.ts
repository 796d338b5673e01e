// The Zapier pack's entry: the app Zapier loads, assembled from the three roles (the authentication
// from credentials/, the actions and dropdown lists from nodes/zapier, the instant triggers from
// triggers/zapier). It sits above all three, so none of them imports another sideways; the n8n pack's
// entry is the package.json scripts/build-packs.ts writes, which lists its credential, node and trigger.
import { addAuth, authentication, handleErrors } from '../credentials/zapier-authentication';
import { packCatalog } from '../nodes/common/catalog-data';
import type { PackResource } from '../nodes/common/pack-catalog';
import { zapierActions } from '../nodes/zapier/actions';
import { hookTriggers } from '../triggers/zapier/hooks';

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
