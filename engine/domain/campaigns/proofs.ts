// Proofs for a campaign's review: a sample of its real recipients (the first rows of its upload that
// make a piece, or the first addresses of its audience), each creative's HTML sides drawn for them by
// the template previewer (../rendering/preview.ts) with their merge variables and the ink-free zone
// shown. Nothing is stored and nothing is mailed; artwork that is a file or a URL is named, not drawn.
import { isPlainObject } from '../../base/records';
import { notFound } from '../../base/errors';
import { messageOf } from '../../base/thrown';
import { addresses } from '../../catalog/addresses';
import { campaigns } from '../../catalog/campaigns';
import { uploads } from '../../catalog/audience-uploads';
import { CREATIVE_KINDS } from '../../catalog/creatives';
import { geometryOf } from '../../catalog/products';
import { PREVIEW_PRODUCTS } from '../rendering/preview';
import { retrieveTemplate } from '../templates/templates';
import { rowsOf } from '../audiences/stored-rows';
import type { Services } from '../services';
import type { Scope } from '../../store/objects';
import { creativesOf } from './creatives';
import { uploadOf } from './upload-audience';

export const MAX_PROOF_SAMPLE = 5;

export interface Proof {
  /** who the proof is for, as the audience names them */
  recipient: string;
  creative_id: string;
  side: string;
  /** the drawn side, PNG; absent when `problem` says why it was not drawn */
  png?: Buffer;
  problem?: string;
}

interface Recipient {
  label: string;
  variables: Record<string, unknown>;
}

async function sampleOf(services: Services, scope: Scope, campaignId: string, n: number): Promise<Recipient[]> {
  const upload = await uploadOf(services, scope, campaignId);
  const picked: Recipient[] = [];
  if (upload) {
    const stored = await services.objects.get(scope, uploads.name, upload.id, { parent: campaignId });
    if (!stored || typeof stored.file_key !== 'string') return picked;
    for await (const { row, parts, problem } of rowsOf(services, stored)) {
      if (problem !== undefined) continue;
      picked.push({
        label: `row ${row.rowNumber}: ${parts.to.name ?? parts.to.company ?? ''}`,
        variables: parts.merge_variables,
      });
      if (picked.length >= n) break;
    }
    return picked;
  }
  const campaign = await services.objects.get(scope, campaigns.name, campaignId);
  const ids = campaign?.audience?.address_ids;
  const page = ids
    ? {
        data: (await Promise.all(ids.slice(0, n).map((id) => services.objects.get(scope, addresses.name, id)))).filter(
          (a) => a !== undefined,
        ),
      }
    : await services.objects.list(scope, addresses.name, { limit: n, metadata: campaign?.audience?.metadata });
  for (const address of page.data)
    picked.push({ label: `${address.id}: ${String(address.name ?? address.company ?? '')}`, variables: {} });
  return picked;
}

/** The HTML of an artwork value: inline HTML, or a template's published version; undefined for a file or URL. */
async function htmlOf(services: Services, scope: Scope, value: string): Promise<string | undefined> {
  if (/^tmpl_/.test(value)) {
    const template = await retrieveTemplate(services.objects, scope, value);
    const version = template.published_version;
    return isPlainObject(version) && typeof version.html === 'string' ? version.html : undefined;
  }
  return /^\s*</.test(value) ? value : undefined;
}

/** A proof to draw: who for, which creative side, and what the previewer needs (or why it cannot). */
export interface PlannedProof {
  recipient: string;
  creative_id: string;
  side: string;
  kind: string;
  size: string;
  artwork: string;
  variables: Record<string, unknown>;
}

/** The proofs of a sample of `n` recipients (at most MAX_PROOF_SAMPLE), not drawn yet. */
export async function planProofs(services: Services, scope: Scope, campaignId: string, n = 3): Promise<PlannedProof[]> {
  const campaign = await services.objects.get(scope, campaigns.name, campaignId);
  if (!campaign) throw notFound('campaign');
  const creatives = await creativesOf(services, scope, campaignId);
  const sample = await sampleOf(services, scope, campaignId, Math.min(Math.max(1, n), MAX_PROOF_SAMPLE));
  const planned: PlannedProof[] = [];
  for (const creative of creatives) {
    const kind = Object.entries(CREATIVE_KINDS).find(([type]) => type === creative.resource_type)?.[1] ?? '';
    const sizes = PREVIEW_PRODUCTS[kind] ?? [];
    const details = isPlainObject(creative.details) ? creative.details : {};
    const size = typeof details.size === 'string' && sizes.includes(details.size) ? details.size : sizes[0];
    const shared = isPlainObject(details.merge_variables) ? details.merge_variables : {};
    const sides = size ? geometryOf(kind, size).sides.map((s) => s.field) : [];
    for (const recipient of sample)
      for (const side of sides) {
        const artwork = creative[side];
        if (typeof artwork !== 'string') continue;
        planned.push({
          recipient: recipient.label,
          creative_id: creative.id,
          side,
          kind,
          size,
          artwork,
          variables: { ...shared, ...recipient.variables },
        });
      }
  }
  return planned;
}

/** Draws one planned proof: its PNG, or why it was not drawn. */
export async function drawProof(services: Services, scope: Scope, planned: PlannedProof): Promise<Proof> {
  const proof: Proof = { recipient: planned.recipient, creative_id: planned.creative_id, side: planned.side };
  try {
    const html = await htmlOf(services, scope, planned.artwork);
    if (html === undefined) proof.problem = 'artwork is a file or URL: see a piece of a run for its proof';
    else
      proof.png = (
        await services.previewer.preview({
          html,
          kind: planned.kind,
          size: planned.size,
          side: planned.side,
          mergeVariables: planned.variables,
          zones: true,
        })
      ).png;
  } catch (error) {
    proof.problem = messageOf(error);
  }
  return proof;
}

export async function campaignProofs(services: Services, scope: Scope, campaignId: string, n = 3): Promise<Proof[]> {
  const proofs: Proof[] = [];
  for (const planned of await planProofs(services, scope, campaignId, n))
    proofs.push(await drawProof(services, scope, planned));
  return proofs;
}
