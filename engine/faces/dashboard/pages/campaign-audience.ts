// The audience step of a campaign: upload a CSV (multipart, the API's parser and file limit), map its
// columns to address fields, merge variables and metadata (opened with a guess from the header), and
// see the row report; or send to the address book, all of it or the addresses whose metadata match.
// Every change goes through the domain functions the API's upload and campaign operations call.
import { ApiError } from '../../../base/errors';
import { campaignOperations, campaigns } from '../../../catalog/campaigns';
import { OPTIONAL_ADDRESS_FIELDS, REQUIRED_ADDRESS_FIELDS, uploadOperations } from '../../../catalog/audience-uploads';
import { isPlainObject } from '../../../base/records';
import { validate } from '../../../domain/validation/validate';
import { createUpload, deleteUpload, shown, updateUpload } from '../../../domain/audiences/uploads';
import { receiveFile } from '../../../domain/audiences/intake';
import { uploadOf } from '../../../domain/campaigns/upload-audience';
import { updateCampaign } from '../../../domain/campaigns/settings';
import type { ApiObject } from '../../../store/objects';
import { page, PageNotFound, type DashboardRequest, type PageAnswer } from '../page';
import { guessMapping } from './column-guess';
import { rowReport } from './row-report';
import { stepsOf } from './campaign-steps';

const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  address_line1: 'Street (line 1)',
  address_city: 'City',
  address_state: 'State',
  address_zip: 'ZIP code',
  address_line2: 'Unit (line 2)',
  company: 'Company',
  address_country: 'Country',
};

async function campaignOf({ services, scope, params }: DashboardRequest): Promise<ApiObject> {
  const campaign = await services.objects.get(scope, campaigns.name, params.id);
  if (!campaign) throw new PageNotFound();
  return campaign;
}

/** Each address field with the columns to choose from, the current (or guessed) one chosen. */
function mappingRows(upload: ApiObject, columns: string[]) {
  const current: Record<string, unknown> = {
    ...(isPlainObject(upload.requiredAddressColumnMapping) ? upload.requiredAddressColumnMapping : {}),
    ...(isPlainObject(upload.optionalAddressColumnMapping) ? upload.optionalAddressColumnMapping : {}),
  };
  const mapped = Object.values(current).some((c) => typeof c === 'string');
  const guessed: Record<string, string | undefined> = mapped ? {} : guessMapping(columns);
  const fields = [
    ...REQUIRED_ADDRESS_FIELDS.map((f) => ({ field: f, required: true })),
    ...OPTIONAL_ADDRESS_FIELDS.map((f) => ({ field: f, required: false })),
  ];
  return fields.map(({ field, required }) => {
    const chosen = typeof current[field] === 'string' ? current[field] : guessed[field];
    return {
      field,
      label: FIELD_LABELS[field],
      required,
      options: columns.map((column) => ({ column, chosen: column === chosen })),
    };
  });
}

/** Each column: the merge variable it fills (the current one, else its own name when no address field
 *  reads it) and whether it is metadata. */
function columnRows(upload: ApiObject, columns: string[], addressColumns: Set<string>) {
  const merge = isPlainObject(upload.mergeVariableColumnMapping) ? upload.mergeVariableColumnMapping : undefined;
  const byColumn = new Map(Object.entries(merge ?? {}).map(([name, column]) => [column, name]));
  const metadata = new Set(Array.isArray(upload.metadata_columns) ? upload.metadata_columns : []);
  return columns.map((column, index) => ({
    index,
    column,
    merge: merge ? (byColumn.get(column) ?? '') : addressColumns.has(column) ? '' : column,
    metadata: metadata.has(column),
  }));
}

async function audiencePage(request: DashboardRequest, problem?: string): Promise<PageAnswer> {
  const campaign = await campaignOf(request);
  const upload = await uploadOf(request.services, request.scope, campaign.id);
  const columns = upload && Array.isArray(upload.columns) ? upload.columns.map(String) : [];
  const fields = upload?.file_key ? mappingRows(upload, columns) : [];
  const addressColumns = new Set(fields.flatMap((f) => f.options.filter((o) => o.chosen).map((o) => o.column)));
  const book = isPlainObject(campaign.audience) ? campaign.audience : undefined;
  const bookMetadata = book && isPlainObject(book.metadata) ? Object.entries(book.metadata)[0] : undefined;
  return {
    view: 'campaign-audience',
    title: `Audience of ${String(campaign.name)}`,
    nav: 'campaigns',
    status: problem ? 422 : 200,
    data: {
      campaign,
      problem,
      steps: stepsOf(campaign.id, 'audience'),
      upload: upload && shown(upload),
      hasFile: Boolean(upload?.file_key),
      fields,
      columns: upload?.file_key ? columnRows(upload, columns, addressColumns) : [],
      report: upload ? await rowReport(request, upload) : undefined,
      book: {
        key: bookMetadata?.[0] ?? '',
        value: bookMetadata ? String(bookMetadata[1]) : '',
        fresh: book?.created_since_last_run === true,
        ids: Array.isArray(book?.address_ids) ? book.address_ids.length : 0,
      },
    },
  };
}

/** Runs a change; a refusal is shown on the audience page. */
async function changing(request: DashboardRequest, change: () => Promise<string>): Promise<PageAnswer> {
  try {
    const notice = await change();
    return { redirect: `/dashboard/campaigns/${request.params.id}/audience`, notice };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    if (error.status === 404) throw new PageNotFound();
    return audiencePage(request, error.message);
  }
}

const receive = (request: DashboardRequest) =>
  changing(request, async () => {
    const { services, scope, files } = request;
    const campaign = await campaignOf(request);
    const file = files.find((f) => f.field === 'file');
    if (!file || file.size === 0) throw new ApiError('invalid', 'Choose a CSV file to upload.', 422);
    let upload = await uploadOf(services, scope, campaign.id);
    if (upload?.file_key) throw new ApiError('invalid', 'The campaign has a file already: remove it first.', 422);
    const made = !upload;
    upload ??= await createUpload(services, scope, validate(uploadOperations.create.body, { campaignId: campaign.id }));
    try {
      await receiveFile(services, scope, upload.id, file);
    } catch (error) {
      // a file refused leaves no upload behind that this form made
      if (made) await deleteUpload(services, scope, upload.id).catch(() => undefined);
      throw error;
    }
    return 'audience_uploaded';
  });

/** The update body the mapping form describes. */
function mappingBody(form: Record<string, string>, columns: readonly string[]) {
  const pick = (fields: readonly string[]) =>
    Object.fromEntries(fields.flatMap((f) => (form[`map_${f}`] ? [[f, form[`map_${f}`]]] : [])));
  const merge = Object.fromEntries(
    columns.flatMap((column, i) => {
      const name = (form[`merge_${i}`] ?? '').trim();
      return name ? [[name, column]] : [];
    }),
  );
  return {
    requiredAddressColumnMapping: pick(REQUIRED_ADDRESS_FIELDS),
    optionalAddressColumnMapping: pick(OPTIONAL_ADDRESS_FIELDS),
    mergeVariableColumnMapping: Object.keys(merge).length ? merge : null,
    metadata: { columns: columns.filter((_c, i) => form[`meta_${i}`] === 'on') },
  };
}

const map = (request: DashboardRequest) =>
  changing(request, async () => {
    const { services, scope, form } = request;
    const campaign = await campaignOf(request);
    const upload = await uploadOf(services, scope, campaign.id);
    if (!upload?.file_key) throw new ApiError('invalid', 'Upload a file before mapping its columns.', 422);
    const columns = Array.isArray(upload.columns) ? upload.columns.map(String) : [];
    const body = validate(uploadOperations.update.body, mappingBody(form, columns));
    await updateUpload(services, scope, upload.id, body);
    return 'mapping_saved';
  });

const remove = (request: DashboardRequest) =>
  changing(request, async () => {
    const campaign = await campaignOf(request);
    const upload = await uploadOf(request.services, request.scope, campaign.id);
    if (upload) await deleteUpload(request.services, request.scope, upload.id);
    return 'audience_removed';
  });

const addressBook = (request: DashboardRequest) =>
  changing(request, async () => {
    const { services, scope, session, form } = request;
    const campaign = await campaignOf(request);
    if (await uploadOf(services, scope, campaign.id))
      throw new ApiError('invalid', 'The campaign sends to its file: remove the file first.', 422);
    const key = (form.key ?? '').trim();
    const fresh = form.fresh === 'on';
    const audience =
      key || fresh
        ? {
            ...(key ? { metadata: { [key]: (form.value ?? '').trim() } } : {}),
            ...(fresh ? { created_since_last_run: true } : {}),
          }
        : null;
    const body = validate(campaignOperations.update.body, { audience });
    await updateCampaign(services, scope, session.account.settings, campaign.id, body);
    return 'audience_saved';
  });

export const campaignAudiencePages = [
  page('GET', '/campaigns/{id}/audience', (request) => audiencePage(request)),
  page('POST', '/campaigns/{id}/audience/file', receive, ['file']),
  page('POST', '/campaigns/{id}/audience/mapping', map),
  page('POST', '/campaigns/{id}/audience/remove', remove),
  page('POST', '/campaigns/{id}/audience/book', addressBook),
];
