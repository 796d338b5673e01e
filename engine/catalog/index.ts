// The catalog: every resource of the API, in the order the docs and packs present them.
import { addresses } from './addresses';
import { verificationResources } from './verifications';
import type { Operation, Resource } from './types';

export const catalog: readonly Resource[] = [addresses, ...verificationResources];

export function findResource(name: string): Resource | undefined {
  return catalog.find((r) => r.name === name);
}

/** Every operation with its resource, the unit the router, OpenAPI and packs walk. */
export function allOperations(): { resource: Resource; operation: Operation }[] {
  return catalog.flatMap((resource) => resource.operations.map((operation) => ({ resource, operation })));
}

export * from './types';
