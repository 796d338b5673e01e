// One job's pass over a run's recipients, whatever the audience (addresses or the rows of an upload):
// each recipient's piece is made through the one mailpiece create path with its recipient row in the
// same commit, a few at a time so creates arriving together share a group commit; a recipient already
// recorded is passed over, one the create refuses is recorded as skipped with the reason, and the
// pass stops when its time budget is spent (the run goes on in a new job) or its lease is lost.
import { ApiError } from '../../base/errors';
import type { Resource } from '../../catalog/types';
import type { Settings } from '../accounts/settings';
import type { Services } from '../services';
import type { ApiObject, ObjectRef, Scope, StoredObjects } from '../../store/objects';
import { recipientKey, type RunRecipient, type SkipCode } from '../../store/run-recipients';
import { campaigns } from '../../catalog/campaigns';
import { createPiece } from '../pieces/create';
import { nextTurn } from '../../base/next-turn';

/** Pieces created at once: enough for the group commit to gather them, few enough to keep memory flat. */
const IN_FLIGHT = 24;

/** The longest a pass keeps the event loop from answering requests. */
const TURN_EVERY_MS = 5;

export type Recipient = Omit<RunRecipient, 'pieceId' | 'skipReason' | 'skipCode'>;

/** How often a pass looks whether its campaign still exists (a deleted campaign mails nothing more). */
const CAMPAIGN_CHECK_MS = 250;

/** The campaign was deleted while its run went on: the run stops, and its pieces are cancelled. */
export class CampaignGone extends Error {}

export class RunPass {
  private readonly running = new Set<Promise<void>>();
  private failure: unknown;
  private readonly until: number;
  private lastTurn = Date.now();
  private lastCampaignCheck = Date.now();
  /** the place of the next piece in the run, counting those its earlier jobs recorded */
  private position: number;
  /** what each piece's commit requires: the campaign, still live */
  private readonly campaignLive: ObjectRef;
  /** each template's published version, read by the pass's first piece that names it */
  private readonly versions = new Map<string, StoredObjects['template_versions']>();

  constructor(
    private readonly services: Services,
    private readonly scope: Scope,
    private readonly settings: Settings,
    private readonly campaign: ApiObject,
    private readonly recorded: Set<string>,
    private readonly signal: AbortSignal,
    budgetMs: number,
    /** the campaign is agent-driven: its pieces meet the agent limits (../agents/limits.ts) */
    private readonly agentDriven = false,
  ) {
    this.until = Date.now() + budgetMs;
    const gone = () => new CampaignGone(`campaign ${campaign.id} was deleted`);
    this.campaignLive = { kind: campaigns.name, id: campaign.id, refusal: gone };
    this.position = recorded.size;
  }

  /** Whether the recipient has its row already (made or skipped, by this run's earlier jobs). */
  done(recipient: Recipient): boolean {
    return this.recorded.has(recipientKey(recipient));
  }

  /**
   * Whether this pass must end before the next recipient: its budget is spent (true, once the pieces in
   * flight are in). A lost lease or a stopping process throws: the next attempt resumes from the rows.
   */
  async spent(): Promise<boolean> {
    if (this.signal.aborted) throw new Error('the run was interrupted; it resumes from its recorded recipients');
    if (Date.now() - this.lastCampaignCheck >= CAMPAIGN_CHECK_MS) {
      this.lastCampaignCheck = Date.now();
      if (!(await this.services.objects.get(this.scope, campaigns.name, this.campaign.id))) {
        await this.settled();
        throw new CampaignGone(`campaign ${this.campaign.id} was deleted`);
      }
    }
    if (Date.now() <= this.until) return false;
    await this.settled();
    return true;
  }

  /**
   * Makes the recipient's piece of `resource` from `body` for the person `personKey` names, or records
   * why none can be made.
   */
  async piece(recipient: Recipient, resource: Resource, body: Record<string, unknown>, personKey?: string) {
    const position = this.position++;
    await this.start(async () => {
      try {
        await createPiece({
          services: this.services,
          scope: this.scope,
          settings: this.settings,
          resource,
          body,
          campaign: { id: this.campaign.id, recipient, personKey, position },
          versions: this.versions,
          agent: this.agentDriven ? 'run' : undefined,
          // the piece commits only while its campaign is live: a delete and a piece's commit are serialized
          requires: [this.campaignLive],
        });
      } catch (error) {
        if (error instanceof CampaignGone) throw error;
        // another process made this recipient's piece first: its row refused ours, nothing doubled
        if (await this.services.store.runRecipients.isRecorded(recipient)) return;
        // another recipient of the run is the same person and has this creative's piece already
        const made =
          personKey &&
          (await this.services.store.campaignMailings.mailedInRun(recipient.runId, recipient.creativeId, personKey));
        if (made) {
          await this.services.store.runRecipients.recordSkipped(this.scope, {
            ...recipient,
            skipReason: `duplicate: the same person and address as the recipient of ${made}`,
            skipCode: 'duplicate',
          });
          return;
        }
        // what the recipient causes (an address deleted, outside the kind's reach) skips it; anything else retries the run
        if (!(error instanceof ApiError)) throw error;
        await this.services.store.runRecipients.recordSkipped(this.scope, {
          ...recipient,
          skipReason: error.message,
          skipCode: 'refused',
        });
      }
    });
  }

  /** Records that the recipient gets no piece, and why (a row with bad data, a duplicate). */
  async skip(recipient: Recipient, reason: string, code: SkipCode = 'refused'): Promise<void> {
    await this.start(() =>
      this.services.store.runRecipients.recordSkipped(this.scope, { ...recipient, skipReason: reason, skipCode: code }),
    );
  }

  /** Waits for every piece in flight; throws the first failure that is not a recipient's. */
  async settled(): Promise<void> {
    await Promise.all(this.running);
    if (this.failure !== undefined) throw this.failure;
  }

  private async start(work: () => Promise<void>): Promise<void> {
    while (this.running.size >= IN_FLIGHT) await Promise.race(this.running);
    // A piece's create can run on microtasks alone (the store answers synchronously on SQLite), and
    // each one that ends starts the next: without turns of the event loop, no request was answered
    // while a run went on (measured: reads waiting 0.3 to 0.6 s during a 2,000-piece run). A turn
    // every few ms: one before every piece made the run about a fifth slower.
    if (Date.now() - this.lastTurn >= TURN_EVERY_MS) {
      await nextTurn();
      this.lastTurn = Date.now();
    }
    if (this.failure !== undefined) throw this.failure;
    const task: Promise<void> = work()
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => this.running.delete(task));
    this.running.add(task);
  }
}
