// Self mailers (spec: Self mailer; docs/compat-notes.md: list and cancel): inside and outside artwork, US only.
import { defineMailpiece } from './define';
import { domesticOnly, notWith } from './rules';

export const selfMailers = defineMailpiece({
  name: 'self_mailers',
  title: 'Self mailer',
  object: 'self_mailer',
  idPrefix: 'sfm',
  description: 'Folded self mailers printed and mailed from inside and outside artwork (US destinations).',
  artwork: [
    { field: 'inside', what: 'The inside artwork', required: true, named: true },
    { field: 'outside', what: 'The outside artwork (the address block is printed on it)', required: true, named: true },
  ],
  sizes: ['6x18_bifold', '11x9_bifold', '12x9_bifold', '17.75x9_trifold'],
  takes: { qr_code: { sides: ['inside', 'outside'] }, fsc: true },
  rules: [notWith('fsc', 'size', ['11x9_bifold'])],
  placementRules: [domesticOnly('Self mailers')],
  sample: { id: 'sfm_8ffbe811dea49dcf', size: '6x18_bifold', fsc: false },
});
