// The catalog: every resource of the API, in the order the docs and packs present them.
import { addresses } from './addresses';
import { templates, templateVersions } from './templates';
import { bankAccounts } from './bank-accounts';
import { billingGroups } from './billing-groups';
import { checks, letters, postcards, selfMailers, snapPacks } from './mailpieces';
import { verificationResources } from './verifications';
import { events } from './events';
import { webhooks } from './webhooks';
import { campaigns } from './campaigns';
import { campaignRuns } from './campaign-runs';
import { creatives } from './creatives';
import { cardOrders, cards } from './cards';
import { buckslipOrders, buckslips } from './buckslips';
import { uploadExports, uploads } from './audience-uploads';
import type { Operation, Resource } from './types';

export const catalog: readonly Resource[] = [
  addresses,
  postcards,
  selfMailers,
  letters,
  checks,
  snapPacks,
  cards,
  cardOrders,
  buckslips,
  buckslipOrders,
  bankAccounts,
  billingGroups,
  templates,
  templateVersions,
  campaigns,
  creatives,
  campaignRuns,
  uploads,
  uploadExports,
  ...verificationResources,
  events,
  webhooks,
];

/** Every event type of every resource, as webhooks may name them. */
export function allEventTypes(): string[] {
  return catalog.flatMap((r) => r.events);
}

export function findResource(name: string): Resource | undefined {
  return catalog.find((r) => r.name === name);
}

/** The mailpiece kinds: the resources with `mailpiece` traits, their names and object schemas kept. */
export const mailpieceResources = [postcards, selfMailers, letters, checks, snapPacks] as const;
export type MailpieceResource = (typeof mailpieceResources)[number];

/** The mailpiece kind of that name, if it is one. */
export function findMailpiece(name: string): MailpieceResource | undefined {
  return mailpieceResources.find((r) => r.name === name);
}

/** Every operation with its resource, the unit the router, OpenAPI and packs walk. */
export function allOperations(): { resource: Resource; operation: Operation }[] {
  return catalog.flatMap((resource) => resource.operations.map((operation) => ({ resource, operation })));
}

/**
 * Every operation that makes mailpieces, now or through a campaign's later runs (`mails`): the agent
 * policy (engine/domain/agents) holds each of them, and its test drives each one.
 */
export function mailingOperations(): { resource: Resource; operation: Operation }[] {
  return allOperations().filter(({ operation }) => operation.mails !== undefined);
}

/** A title inside a sentence: `International verification` -> `international verification`; `US ...` stays. */
const inSentence = (title: string) => (/^[A-Z]{2,}\b/.test(title) ? title : title[0].toLowerCase() + title.slice(1));

/** What publishable keys may call, in words, from the operations' `publishable` flags. */
export function publishableSummary(): string {
  const titles = [
    ...new Set(
      allOperations()
        .filter(({ operation }) => operation.publishable)
        .map(({ resource }) => inSentence(resource.title)),
    ),
  ];
  return titles.length <= 1
    ? (titles[0] ?? 'nothing')
    : `${titles.slice(0, -1).join(', ')} and ${titles[titles.length - 1]}`;
}

/** A declared event type of the resource (`address.created`); an undeclared one is a programming error. */
export function eventOf(resource: Resource, action: string): { type: string; resource: string } {
  const type = `${resource.object}.${action}`;
  if (!resource.events.includes(type))
    throw new Error(`${type} is not declared in the catalog's events of ${resource.name}`);
  return { type, resource: resource.name };
}

export * from './types';
export * from './paths';
