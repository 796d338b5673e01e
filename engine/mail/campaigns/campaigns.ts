// A campaign as the API shows it: the stored object with its creatives and its upload, each read in one
// query for a whole page (they live under it), and `is_draft` following its status.
import { creatives } from '../../catalog/creatives';
import { uploads } from '../../catalog/audience-uploads';
import { shown } from '../uploads/uploads';
import type { Services } from '../../services';
import type { ApiObject, Scope } from '../../store/objects';

export async function withCreatives(services: Services, scope: Scope, campaigns: ApiObject[]): Promise<ApiObject[]> {
  const byCampaign = await services.objects.children(
    scope,
    creatives.name,
    campaigns.map((c) => c.id),
  );
  const uploadsOf = await services.objects.children(
    scope,
    uploads.name,
    campaigns.map((c) => c.id),
  );
  return campaigns.map((c) => ({
    ...c,
    is_draft: c.status === 'draft',
    creatives: byCampaign.get(c.id) ?? [],
    uploads: (uploadsOf.get(c.id) ?? []).map(shown),
  }));
}
