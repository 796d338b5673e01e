// List pages answered again from their JSON text while the database has not changed. Clients poll the
// first page of a list (n8n and Zapier polls, dashboards, sync jobs) far more often than anything is
// written; a repeated page then costs no query, no JSON parsing and no shaping. The cache is as exact as
// the database: it holds only pages read since the last commit by any connection, of this process or
// another (SQLite's data_version, read before the page is), and it is emptied at the first sign of one.
// On PostgreSQL no such reading is cheap, so nothing is kept there. Pieces (and whatever else has file
// links) are never kept: each answer signs fresh links to their files.
import type { Resource } from '../catalog/types';
import { hasAssetLinks } from '../platform/assets/links';

/** Everything a list answer depends on besides the database: who asks, in which version, for what. */
export interface ListAnswerKey {
  accountId: string;
  mode: string;
  version: string;
  /** scheme and host the page's links start with */
  origin: string;
  path: string;
  querystring: string;
}

const MAX_ENTRIES = 256;
const MAX_CHARS = 4_000_000;
/** a page larger than this is not kept: a few of them would crowd out every other */
const MAX_ENTRY_CHARS = MAX_CHARS / 16;

export class ListAnswers {
  private stamp: number | undefined;
  /** in insertion order, so the first key is the oldest */
  private readonly answers = new Map<string, string>();
  private chars = 0;

  /** Whether the answers of `resource`'s lists may be kept at all. */
  static keeps(resource: Resource): boolean {
    return !hasAssetLinks(resource);
  }

  static keyOf(key: ListAnswerKey): string {
    return `${key.accountId}\n${key.mode}\n${key.version}\n${key.origin}\n${key.path}\n${key.querystring}`;
  }

  /** The page's JSON text, if it was answered since the database last changed (`stamp`). */
  get(key: string, stamp: number): string | undefined {
    if (stamp !== this.stamp) {
      this.clear();
      this.stamp = stamp;
      return undefined;
    }
    return this.answers.get(key);
  }

  /** Keeps a page read at `stamp` (taken before the read), unless the database has changed since. */
  set(key: string, stamp: number, text: string): void {
    if (stamp !== this.stamp || text.length > MAX_ENTRY_CHARS) return;
    this.drop(key);
    // keys count too: a long query string is part of what is held
    const size = key.length + text.length;
    while (this.answers.size > 0 && (this.answers.size >= MAX_ENTRIES || this.chars + size > MAX_CHARS))
      this.drop(this.answers.keys().next().value as string);
    this.answers.set(key, text);
    this.chars += size;
  }

  private drop(key: string): void {
    const text = this.answers.get(key);
    if (text === undefined) return;
    this.answers.delete(key);
    this.chars -= key.length + text.length;
  }

  private clear(): void {
    this.answers.clear();
    this.chars = 0;
  }
}
