// Snap packs (spec: Snap pack; docs/compat-notes.md: list, retrieve, cancel; no webhook events): ids are `ord_` and
// 26 hex characters; no fsc or QR code.
import { Type } from '@sinclair/typebox';
import { filter } from '../list-filters';
import { defineMailpiece } from './define';
import { domesticOnly } from './rules';

const color = () => Type.Boolean({ default: false, description: 'Print in color (default false).', examples: [false] });

export const snapPacks = defineMailpiece({
  name: 'snap_packs',
  title: 'Snap pack',
  object: 'snap_pack',
  idPrefix: 'ord',
  idPattern: '^ord_[0-9a-f]{26}$',
  idLength: 26,
  description:
    'Snap packs (pressure-sealed mailers) printed and mailed from inside and outside artwork (US destinations).',
  artwork: [
    { field: 'inside', what: 'The inside artwork (8.5x11 in)', required: true, named: true },
    { field: 'outside', what: 'The outside artwork (6x18 in)', required: true, named: true },
  ],
  sizes: ['8.5x11'],
  takes: { qr_code: false, fsc: false },
  createFields: { color: Type.Optional(color()) },
  objectFields: { color: color() },
  placementRules: [domesticOnly('Snap packs')],
  filters: [
    filter('color', 'color', 'equals', Type.Boolean({ description: 'Only color (true) or black and white pieces.' })),
  ],
  events: 'none',
  sample: { id: 'ord_2f6c0d8e1b9a4c7d3e5f60718a', size: '8.5x11', color: false },
});
