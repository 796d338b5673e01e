// Request inputs made from the catalog's own examples, so every create-like operation the catalog
// gains (verifications now, mail later) is exercised by both packs without a hand-written fixture.
import { fieldsOf } from '../../nodes/common/schema';
import type { PackOperation, PackResource } from '../../nodes/common/pack-catalog';

const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

export function exampleInputs(op: PackOperation, resources: readonly PackResource[]) {
  const n8n: Record<string, unknown> = {};
  const additionalFields: Record<string, unknown> = {};
  const zapier: Record<string, unknown> = {};
  // fields the catalog says exclude each other ("Not allowed with `address`"): keep the first one met
  const excluded = new Set<string>();
  const exclusions = (text: string) => [...text.matchAll(/not allowed with `(\w+)`/gi)].map((m) => m[1]);
  for (const f of fieldsOf(op.body, resources)) {
    if (f.kind.kind === 'idOrObject' || excluded.has(f.name)) continue;
    let example = f.example;
    const items = f.kind.schema.items;
    if (example === undefined && f.kind.schema.type === 'array' && items?.examples?.length)
      example = [items.examples[0]];
    if (example === undefined || (!scalar(example) && !f.required)) continue;
    if (exclusions(f.description).some((other) => other in zapier)) continue;
    // an alternative form of the whole body ("then no other field may be sent")
    if (/then (no other field|only `)/i.test(f.description) && Object.keys(zapier).length > 0) continue;
    for (const other of exclusions(f.description)) excluded.add(other);
    const value = scalar(example) ? example : JSON.stringify(example);
    zapier[f.name] = value;
    if (f.required) n8n[f.name] = f.kind.kind === 'string' && f.kind.ref ? { __rl: true, mode: 'id', value } : value;
    else additionalFields[f.name] = value;
  }
  if (Object.keys(additionalFields).length) n8n.additionalFields = additionalFields;
  return { n8n, zapier };
}

/** Create-like operations of resources that do not store objects (verification family): runnable from examples alone. */
export function exampleOperations(resources: readonly PackResource[]) {
  return resources.flatMap((resource) =>
    resource.operations
      .filter(
        (op) =>
          op.method === 'POST' && !op.path.includes('{') && !resource.operations.some((o) => o.name === 'retrieve'),
      )
      .map((operation) => ({ resource, operation })),
  );
}
