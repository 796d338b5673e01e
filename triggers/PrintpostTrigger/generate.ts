// The trigger's event parameters, generated from the catalog's event families: a Resource choice,
// then that resource's event types (a multiOptions shown for it). scripts/n8n-descriptions.ts writes
// them to descriptions/EventsDescription.ts, and the pack tests check that file against the catalog.
import type { INodeProperties } from 'n8n-workflow';
import type { PackResource } from '../../nodes/common/pack-catalog';
import { eventFamilies, eventModes, eventTypesOf } from '../../nodes/common/event-types';
import { title } from '../../nodes/common/schema';

export function eventProperties(resources: readonly PackResource[]): INodeProperties[] {
  const families = eventFamilies(resources);
  return [
    {
      displayName: 'Resource',
      name: 'resource',
      type: 'options',
      noDataExpression: true,
      options: families.map((r) => ({ name: title(r.name), value: r.name, description: r.description })),
      default: families[0]?.name ?? '',
      description: 'Whose events start the workflow',
    },
    ...families.map((r): INodeProperties => ({
      displayName: 'Events',
      name: 'events',
      type: 'multiOptions',
      required: true,
      displayOptions: { show: { resource: [r.name] } },
      options: eventTypesOf(r).map((e) => ({
        name: e.label,
        value: e.type,
        description: `${e.type}, in ${eventModes(e)}`,
      })),
      default: [],
      description: `The ${r.title.toLowerCase()} events that start the workflow`,
    })),
  ];
}
