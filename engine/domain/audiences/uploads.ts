// Uploads as objects: created under their campaign (shown in its `uploads`, deleted with it), their
// column mappings changed by update, their file's bytes kept in the asset store. The stored object
// keeps two fields of its own (the file's asset key, and the metadata columns under a name that the
// metadata index does not read); `shown` gives the vendor's shape.
import { ApiError, notFound } from '../../base/errors';
import { campaigns } from '../../catalog/campaigns';
import {
  OPTIONAL_ADDRESS_FIELDS,
  REQUIRED_ADDRESS_FIELDS,
  uploads,
  type uploadOperations,
} from '../../catalog/audience-uploads';
import type { BodyOf } from '../../catalog/types';
import type { Services } from '../services';
import type { ApiObject, Scope, StoredObjects } from '../../store/objects';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import { assertMappingFits, mappingOf, stateOf } from './rows';
import { tallyFile } from './intake';
import { reopenApproval } from '../approvals/reopen';
import { markAgentDriven } from '../agents/driven';

type CreateBody = BodyOf<typeof uploadOperations.create>;
type UpdateBody = BodyOf<typeof uploadOperations.update>;

const INTERNAL = new Set(['file_key', 'metadata_columns']);

/** The upload as the API shows it: every mapping field named (null when unmapped), as the vendor has them. */
export function shown(upload: ApiObject): ApiObject {
  const named = (fields: readonly string[], given: unknown) =>
    Object.fromEntries(fields.map((f) => [f, (given as Record<string, unknown> | null)?.[f] ?? null]));
  const visible: ApiObject = {
    ...upload,
    requiredAddressColumnMapping: named(REQUIRED_ADDRESS_FIELDS, upload.requiredAddressColumnMapping),
    optionalAddressColumnMapping: named(OPTIONAL_ADDRESS_FIELDS, upload.optionalAddressColumnMapping),
    metadata: { columns: upload.metadata_columns ?? [] },
  };
  for (const key of INTERNAL) delete visible[key];
  // strings in the vendor's schema, never null: left out until there is one
  for (const key of ['originalFilename', 'failuresUrl']) if (visible[key] === null) delete visible[key];
  return visible;
}

type MappingFields = Partial<
  Pick<
    StoredObjects['uploads'],
    'requiredAddressColumnMapping' | 'optionalAddressColumnMapping' | 'mergeVariableColumnMapping' | 'metadata_columns'
  >
>;

/** The mapping fields of a create or update body, as stored. */
function mappingFields(body: CreateBody | UpdateBody): MappingFields {
  const fields: MappingFields = {};
  if (body.requiredAddressColumnMapping !== undefined)
    fields.requiredAddressColumnMapping = body.requiredAddressColumnMapping;
  if (body.optionalAddressColumnMapping !== undefined)
    fields.optionalAddressColumnMapping = body.optionalAddressColumnMapping;
  if (body.mergeVariableColumnMapping !== undefined)
    fields.mergeVariableColumnMapping = body.mergeVariableColumnMapping;
  if (body.metadata !== undefined) fields.metadata_columns = body.metadata.columns ?? [];
  return fields;
}

/** `agent`: an AI agent asks, and the campaign becomes agent-driven (../agents/driven.ts). */
export async function createUpload(
  services: Services,
  scope: Scope,
  body: CreateBody,
  agent = false,
): Promise<ApiObject> {
  const campaign = await services.objects.get(scope, campaigns.name, body.campaignId);
  if (!campaign) throw new ApiError('not_found', `campaignId ${body.campaignId} not found`, 404);
  if (agent) await markAgentDriven(services.objects, scope, campaign.id);
  const existing = (await services.objects.children(scope, uploads.name, [campaign.id])).get(campaign.id) ?? [];
  if (existing.length)
    throw new ApiError('invalid', `campaign ${campaign.id} has an upload already (${existing[0].id})`, 422);
  await reopenApproval(services.objects, scope, campaign.id, 'its audience');
  const now = nowIso();
  const upload: ApiObject = {
    id: newId(uploads.idPrefix),
    accountId: scope.accountId,
    campaignId: campaign.id,
    mode: scope.mode,
    requiredAddressColumnMapping: {},
    optionalAddressColumnMapping: {},
    mergeVariableColumnMapping: null,
    metadata_columns: [],
    ...mappingFields(body),
    state: 'Draft',
    originalFilename: null,
    failuresUrl: null,
    totalMailpieces: 0,
    failedMailpieces: 0,
    validatedMailpieces: 0,
    bytesProcessed: 0,
    columns: [],
    file_key: null,
    dateCreated: now,
    dateModified: now,
    date_created: now,
    date_modified: now,
    object: uploads.object,
  };
  await services.objects.insert(scope, uploads.name, upload, { parent: campaign.id });
  return shown(upload);
}

/**
 * Changes the mappings (and the file's name). Once the file is in, a mapping must fit its header and
 * the counts are taken again from the stored file, so they stay true to the mapping.
 */
export async function updateUpload(services: Services, scope: Scope, id: string, body: UpdateBody, agent = false) {
  const current = await services.objects.get(scope, uploads.name, id);
  if (!current) throw notFound('upload');
  if (agent) await markAgentDriven(services.objects, scope, current.campaignId);
  await reopenApproval(services.objects, scope, current.campaignId, "its audience's mapping");
  const next: StoredObjects['uploads'] = { ...current, ...mappingFields(body) };
  if (body.originalFilename !== undefined) next.originalFilename = body.originalFilename;
  const mapping = mappingOf(next);
  let counts: Record<string, number> = {};
  if (typeof current.file_key === 'string') {
    assertMappingFits(mapping, current.columns);
    const stored = await services.assets.getStream(current.file_key);
    if (!stored) throw new Error(`the file of upload ${id} is missing from the asset store`);
    const tally = await tallyFile(stored.stream, mapping);
    counts = {
      totalMailpieces: tally.rows,
      failedMailpieces: tally.failed,
      validatedMailpieces: tally.rows - tally.failed,
    };
  }
  const updated = await services.objects.transition(scope, uploads.name, id, {
    // the file arrived meanwhile: its own counts stand, and this mapping was not checked against it
    refuse: (now) =>
      now.file_key !== current.file_key ? new ApiError('conflict', 'the upload changed; try again', 409) : undefined,
    change: (now) => {
      const changed = { ...now, ...mappingFields(body), ...counts };
      if (body.originalFilename !== undefined) changed.originalFilename = body.originalFilename;
      return { ...changed, state: stateOf(changed), dateModified: nowIso() };
    },
  });
  if (!updated) throw notFound('upload');
  return shown(updated);
}

/** Deletes the upload, then its file (a file left behind by a failed removal is only space). */
export async function deleteUpload(services: Services, scope: Scope, id: string) {
  const current = await services.objects.get(scope, uploads.name, id);
  if (current) await reopenApproval(services.objects, scope, current.campaignId, 'its audience');
  if (!current || !(await services.objects.delete(scope, uploads, id))) throw notFound('upload');
  if (typeof current.file_key === 'string') await services.assets.delete([current.file_key]).catch(() => undefined);
  return { id, deleted: true };
}
