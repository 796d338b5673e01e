// Sending one live piece to production: the `produce-piece` job, queued in the commit that made the
// piece `rendered` (engine/domain/rendering/outcome.ts). Once the piece's cancellation window (or its
// send_date) has passed, its print job is staged with the provider, the piece is claimed for it
// (claim.ts), and the claimed job is released. The job may run again at any point after a crash or
// in a second process: the piece's `production` says which staged job is the real one, releasing it
// again does nothing, and the others are discarded. So each piece is produced exactly once.
import { findMailpiece, type MailpieceResource } from '../../catalog';
import type { Resource } from '../../catalog/types';
import type { Accounts } from '../accounts/accounts';
import type { AssetStore } from '../../platform/assets/store';
import type { JobQueue } from '../../platform/jobs/types';
import {
  PRODUCE_PIECE,
  PRODUCE_PIECE_OPTIONS,
  RENDER_PIECE,
  RENDER_PIECE_OPTIONS,
  type ProducePieceData,
  type RenderPieceData,
} from '../../platform/jobs/names';
import { type EngineConfig, uspsOf } from '../../platform/config';
import type { UspsIdentity, UspsReadiness } from '../../catalog/usps-identity';
import { overlayPiece } from '../../print/overlay/types';
import { mailerIdIn } from '../rendering/imb-codes';
import { markForRerender } from '../rendering/outcome';
import type { ApiObject, ObjectStore, Scope, StoredPiece } from '../../store/objects';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import { cancelDeadline } from '../pieces/schedule';
import { claimProduction, productionOf, type Production } from './claim';
import type { PrintProvider } from './provider';
import { pdfPageCount, ticketOf } from './ticket';
import { ticketInserts } from './inserts';
import { productionGate } from '../campaigns/approval';
import { cancelPiece } from '../pieces/cancel';

export interface ProductionContext {
  objects: ObjectStore;
  assets: AssetStore;
  accounts: Accounts;
  jobs: JobQueue;
  provider: PrintProvider;
  config: EngineConfig;
}

/** How often a piece of a campaign awaiting approval looks again (approving sends it on at once). */
const APPROVAL_RECHECK_MS = 10 * 60_000;

export type ProduceResult = 'produced' | 'waiting' | 'skipped' | 'rerender';

/** Whether the piece's stored barcode carries the configured Mailer ID (else its PDF must not be mailed). */
function drawnForMailing(piece: ApiObject, usps: UspsReadiness): boolean {
  const tracking = overlayPiece(piece).imb?.tracking_code ?? '';
  return (
    usps.ready && tracking.length === 20 && mailerIdIn(tracking, usps.identity.mailerId) === usps.identity.mailerId
  );
}

/** The job that sends the piece to production, for the commit that renders it: due at its send_date at the earliest. */
export function produceJob(jobs: JobQueue, scope: Scope, resource: Resource, piece: ApiObject) {
  const sendAt = Date.parse(String(piece.send_date));
  const data: ProducePieceData = { piece: piece.id, kind: resource.name, account: scope.accountId };
  return jobs.enqueueWith(PRODUCE_PIECE, data, {
    ...PRODUCE_PIECE_OPTIONS,
    ...(sendAt > Date.now() ? { startAfter: new Date(sendAt) } : {}),
  });
}

export async function producePiece(ctx: ProductionContext, data: ProducePieceData): Promise<ProduceResult> {
  const resource = findMailpiece(data.kind);
  if (!resource) throw new Error(`produce-piece: ${data.kind} is not a mailpiece kind`);
  const scope: Scope = { accountId: data.account, mode: 'live' };
  // a claim lost to a change racing it (a cancel, thumbnails) is looked at again as the piece is now
  for (let attempt = 0; attempt < 3; attempt++) {
    const piece = await ctx.objects.get(scope, resource.name, data.piece);
    if (!piece) {
      // cancelled (or never live): nothing it staged may ever be printed
      await ctx.provider.discardOthers(data.piece);
      return 'skipped';
    }
    const claimed = productionOf(piece);
    if (claimed) {
      await finish(ctx, piece.id, claimed);
      return 'produced';
    }
    if (piece.status !== 'rendered') return 'skipped';
    const gate = await productionGate(ctx.objects, scope, piece);
    if (gate === 'rejected') {
      // made after its campaign's rejection cancelled the rest: cancelled likewise, never printed
      await cancelPiece(ctx.objects, ctx.assets, scope, undefined, resource, piece.id).catch(() => undefined);
      return 'skipped';
    }
    if (gate === 'wait') {
      // its campaign awaits approval: looked at again later (an approval sends it on at once)
      await ctx.jobs.send(PRODUCE_PIECE, data, {
        ...PRODUCE_PIECE_OPTIONS,
        startAfter: new Date(Date.now() + APPROVAL_RECHECK_MS),
      });
      return 'waiting';
    }
    const usps = uspsOf(ctx.config);
    if (!usps.ready) {
      // this process cannot tell whether the PDF may be mailed: the job comes back (an engine with
      // the identity takes it meanwhile)
      await ctx.jobs.send(PRODUCE_PIECE, data, { ...PRODUCE_PIECE_OPTIONS, startAfter: new Date(Date.now() + 60_000) });
      return 'waiting';
    }
    if (!drawnForMailing(piece, usps)) {
      // drawn before the USPS identity was configured (an older engine), or under another Mailer ID
      const render = ctx.jobs.enqueueWith(
        RENDER_PIECE,
        { piece: piece.id } satisfies RenderPieceData,
        RENDER_PIECE_OPTIONS,
      );
      if (await markForRerender(ctx.objects, scope, resource, piece.id, render)) return 'rerender';
      continue;
    }
    const account = await ctx.accounts.byId(scope.accountId);
    if (!account) return 'skipped';
    const window = account.settings.cancellation_window_minutes;
    const due = cancelDeadline(piece, window);
    if (Date.now() < due) {
      // not yet (a window the account lengthened since): the job comes back when it is
      await ctx.jobs.send(PRODUCE_PIECE, data, { ...PRODUCE_PIECE_OPTIONS, startAfter: new Date(due) });
      return 'waiting';
    }
    const production: Production = { id: newId('pjob'), date_created: nowIso(), simulated: false };
    await stage(ctx, resource, piece, production, scope, usps.identity);
    const ready = (current: ApiObject) => Date.now() >= cancelDeadline(current, window);
    if (await claimProduction(ctx.objects, scope, resource, piece.id, production, ready)) {
      await finish(ctx, piece.id, production);
      return 'produced';
    }
  }
  throw new Error(`${data.piece} kept changing while it was sent to production`);
}

async function stage(
  ctx: ProductionContext,
  resource: MailpieceResource,
  piece: StoredPiece,
  production: Production,
  scope: Scope,
  usps: UspsIdentity,
): Promise<void> {
  const stored = typeof piece.url === 'string' ? await ctx.assets.get(piece.url) : undefined;
  // thrown, so the job is retried: a rendered piece whose PDF cannot be read now is an outage
  if (!stored) throw new Error(`${piece.id}: its rendered PDF ${String(piece.url)} is not in the asset store`);
  const ticket = ticketOf(resource, piece, {
    ticket: production.id,
    date: production.date_created,
    accountId: scope.accountId,
    pages: await pdfPageCount(stored.bytes),
    inserts: await ticketInserts(ctx.objects, scope, piece),
    usps,
  });
  await ctx.provider.stage({ ticket, pdf: stored.bytes });
}

/** Hands over the claimed job (again, harmlessly, after a crash) and drops every other one staged. */
async function finish(ctx: ProductionContext, pieceId: string, production: Production): Promise<void> {
  if (production.simulated) return;
  await ctx.provider.release(pieceId, production.id, production.date_created);
  await ctx.provider.discardOthers(pieceId, production.id);
}
