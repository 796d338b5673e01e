// Request inputs made from the catalog's own examples, so every create-like operation the catalog
// gains (verifications now, mail later) is exercised by both packs without a hand-written fixture.
import { fieldsOf } from '../../nodes/shared/schema';
import type { PackOperation, PackResource } from '../../nodes/shared/pack-catalog';

const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

export function exampleInputs(op: PackOperation, resources: readonly PackResource[]) {
  const n8n: Record<string, unknown> = {};
  const additionalFields: Record<string, unknown> = {};
  const zapier: Record<string, unknown> = {};
  for (const f of fieldsOf(op.body, resources)) {
    if (!scalar(f.example)) continue;
    if (f.kind.kind === 'idOrObject') continue;
    zapier[f.name] = f.example;
    if (f.required) n8n[f.name] = f.kind.kind === 'string' && f.kind.ref ? { __rl: true, mode: 'id', value: f.example } : f.example;
    else additionalFields[f.name] = f.example;
  }
  if (Object.keys(additionalFields).length) n8n.additionalFields = additionalFields;
  return { n8n, zapier };
}

/** Create-like operations of resources that do not store objects (verification family): runnable from examples alone. */
export function exampleOperations(resources: readonly PackResource[]) {
  return resources.flatMap((resource) =>
    resource.operations
      .filter((op) => op.method === 'POST' && !op.path.includes('{') && !resource.operations.some((o) => o.name === 'retrieve'))
      .map((operation) => ({ resource, operation })),
  );
}
