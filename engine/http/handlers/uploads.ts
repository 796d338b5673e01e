// Audience uploads: an upload lives under its campaign (so it is read with it and deleted with it), its
// file arrives as multipart and is checked before it is kept, and its report and exports read the
// stored file again. Exports are written at once (the vendor's `in_progress` never shows), and their
// `s3Url` is a signed link to the engine's /assets, like a piece's PDF.
import { exportOperations, uploadExports, uploadOperations, uploads } from '../../catalog/audience-uploads';
import { ApiError, notFound } from '../../base/errors';
import { ASSET_ROUTE_PREFIX } from '../../platform/assets/links';
import { receiveFile } from '../../domain/audiences/intake';
import { exportCsv, reportPage } from '../../domain/audiences/report';
import { createUpload, deleteUpload, shown, updateUpload } from '../../domain/audiences/uploads';
import type { Services } from '../../domain/services';
import type { ApiObject, Scope, StoredObjects } from '../../store/objects';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import { serve, type Served } from '../operation';
import { envelope, listParams } from '../list';

type Upload = StoredObjects['uploads'];

async function uploadNamed(services: Services, scope: Scope, id: string): Promise<Upload> {
  const upload = await services.objects.get(scope, uploads.name, id);
  if (!upload) throw notFound('upload');
  return upload;
}

function withFile(upload: Upload): Upload {
  if (typeof upload.file_key !== 'string')
    throw new ApiError('invalid', `upload ${upload.id} has no file yet: POST it to /v1/uploads/${upload.id}/file`, 422);
  return upload;
}

/** An export's stored file key as a signed link on this engine. */
function signedExport(services: Services, url: string, exported: ApiObject): ApiObject {
  const key = exported.s3Url;
  if (typeof key !== 'string') return exported;
  return { ...exported, s3Url: `${new URL(url).origin}${services.signer.sign(`${ASSET_ROUTE_PREFIX}${key}`)}` };
}

export const uploadHandlers: Served[] = [
  serve(uploadOperations.create, ({ services, scope, caller, body }) =>
    createUpload(services, scope, body, caller.agent),
  ),
  serve(uploadOperations.retrieve, async ({ services, scope, params }) =>
    shown(await uploadNamed(services, scope, params.id)),
  ),
  serve(uploadOperations.update, ({ services, scope, caller, params, body }) =>
    updateUpload(services, scope, params.id, body, caller.agent),
  ),
  serve(uploadOperations.delete, ({ services, scope, params }) => deleteUpload(services, scope, params.id)),
  serve(uploadOperations.list, async ({ services, scope, operation, query, url }) => {
    const { campaignId, ...rest } = query;
    const page = await services.objects.list(scope, uploads.name, {
      ...listParams(rest, operation),
      parent: campaignId,
    });
    return envelope({ ...page, data: page.data.map(shown) }, url, query);
  }),
  serve(uploadOperations.file, ({ services, scope, caller, params, body }) =>
    receiveFile(services, scope, params.upl_id, body.file, caller.agent),
  ),
  serve(uploadOperations.report, async ({ services, scope, params, query, url }) => {
    const upload = withFile(await uploadNamed(services, scope, params.upl_id));
    const limit = query.limit ?? 100;
    const offset = query.offset ?? 0;
    const page = await reportPage(services, scope, upload, { status: query.status, limit, offset });
    const link = (at: number) => {
      const search = new URLSearchParams({ limit: String(limit), offset: String(at) });
      if (query.status) search.set('status', query.status);
      return `${url}?${search.toString()}`;
    };
    return {
      ...page,
      next_url: offset + page.count < page.total_count ? link(offset + page.count) : null,
      prev_url: offset > 0 ? link(Math.max(0, offset - limit)) : null,
    };
  }),
];

export const exportHandlers: Served[] = [
  serve(exportOperations.create, async ({ services, scope, params, body }) => {
    const upload = withFile(await uploadNamed(services, scope, params.upl_id));
    const id = newId(uploadExports.idPrefix, 17);
    const key = `exports/${id}.csv`;
    const keep =
      body.type === 'all'
        ? () => true
        : (line: { status: string }) => line.status === (body.type === 'failures' ? 'Failed' : 'Validated');
    await services.assets.putStream(key, exportCsv(services, scope, upload, keep), 'text/csv');
    const now = nowIso();
    const exported: ApiObject = {
      id,
      uploadId: upload.id,
      type: body.type,
      state: 'succeeded',
      s3Url: key,
      deleted: false,
      dateCreated: now,
      dateModified: now,
      date_created: now,
      date_modified: now,
      object: uploadExports.object,
    };
    try {
      await services.objects.insert(scope, uploadExports.name, exported, { parent: upload.id });
    } catch (error) {
      await services.assets.delete([key]).catch(() => undefined);
      throw error;
    }
    return { message: 'Export is processing' as const, exportId: id };
  }),
  serve(exportOperations.retrieve, async ({ services, scope, params, url }) => {
    const exported = await services.objects.get(scope, uploadExports.name, params.id, { parent: params.upl_id });
    if (!exported) throw notFound('export');
    return signedExport(services, url, exported);
  }),
];
