// What the store reads is typed from the catalog: an object of kind `postcards` has the static type of
// the postcard resource's object schema. Fields no schema names (the engine's own bookkeeping) stay
// readable, as unknown, through ApiObject.
import type { Static, TSchema } from '@sinclair/typebox';
import type { addresses } from '../catalog/addresses';
import type { uploadExports, uploads } from '../catalog/audience-uploads';
import type { bankAccounts } from '../catalog/bank-accounts';
import type { billingGroups } from '../catalog/billing-groups';
import type { buckslipOrders, buckslips } from '../catalog/buckslips';
import type { campaigns } from '../catalog/campaigns';
import type { campaignRuns } from '../catalog/campaign-runs';
import type { cardOrders, cards } from '../catalog/cards';
import type { creatives } from '../catalog/creatives';
import type { events } from '../catalog/events';
import type { checks, letters, postcards, selfMailers, snapPacks } from '../catalog/mailpieces';
import type { templates, templateVersions } from '../catalog/templates';
import type { webhooks } from '../catalog/webhooks';
import type { ApiObject } from './columns';

/** An object as stored under a schema: the schema's static type, its other fields unknown. */
export type Stored<S extends TSchema> = Static<S> & ApiObject;

type Mailpieces = typeof postcards | typeof selfMailers | typeof letters | typeof checks | typeof snapPacks;

type StoredResources =
  | typeof addresses
  | Mailpieces
  | typeof cards
  | typeof cardOrders
  | typeof buckslips
  | typeof buckslipOrders
  | typeof bankAccounts
  | typeof billingGroups
  | typeof templates
  | typeof templateVersions
  | typeof campaigns
  | typeof creatives
  | typeof campaignRuns
  | typeof uploads
  | typeof uploadExports
  | typeof events
  | typeof webhooks;

type FromSchemas = { [R in StoredResources as R['name']]: Stored<R['schema']> };

/** A template's row keeps its published version's id; its versions are rows of their own (domain/templates). */
type TemplateRow = Omit<Static<typeof templates.schema>, 'versions' | 'published_version'> & {
  published_version: string;
} & ApiObject;

/**
 * An upload's row keeps its metadata columns and its file's key, shown as `metadata` and not at all
 * (domain/audiences/uploads.ts); its file's name and failures link are null until there is one.
 */
type UploadRow = Omit<Static<typeof uploads.schema>, 'metadata' | 'originalFilename' | 'failuresUrl'> & {
  metadata_columns: string[];
  file_key: string | null;
  originalFilename?: string | null;
  failuresUrl?: string | null;
} & ApiObject;

/** The stored object of each kind (a resource's name). */
export type StoredObjects = Omit<FromSchemas, 'templates' | 'uploads'> & { templates: TemplateRow; uploads: UploadRow };

/** The object a read of `kind` returns: typed where the kind is known, an ApiObject where it is any string. */
export type StoredObject<K extends string> = K extends keyof StoredObjects ? StoredObjects[K] : ApiObject;

/** The kinds of mailpiece and a piece of any of them. */
export type PieceKind = Mailpieces['name'];
export type StoredPiece = StoredObjects[PieceKind];

/** A stored object's JSON text, read back as the object of its kind: where the rows' text becomes typed. */
export function parseStored<K extends string>(_kind: K, text: string): StoredObject<K> {
  return JSON.parse(text) as StoredObject<K>;
}
