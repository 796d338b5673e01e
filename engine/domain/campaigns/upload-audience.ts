// A campaign whose audience is an upload: which upload (a campaign has at most one), and whether a run
// can send to it yet. Its rows are read by ../audiences/stored-rows.ts.
import { uploads } from '../../catalog/audience-uploads';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';

/** The campaign's upload (a campaign has at most one), if it has one. */
export async function uploadOf(services: Services, scope: Scope, campaignId: string): Promise<ApiObject | undefined> {
  return (await services.objects.children(scope, uploads.name, [campaignId])).get(campaignId)?.[0];
}

/** Why the upload cannot be sent to yet, if it cannot. */
export const notReady = (upload: ApiObject): string | undefined =>
  upload.state === 'Scheduled'
    ? undefined
    : `the campaign's upload ${upload.id} is not ready: it needs its file and an address mapping`;
