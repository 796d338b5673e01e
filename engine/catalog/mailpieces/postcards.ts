// Postcards (spec: Postcard, Postcards): front and back artwork; only 4x6 goes abroad.
import { defineMailpiece } from './define';
import type { Rule } from '../types';
import { domesticOnly, notWith } from './rules';

const standardNot4x6: Rule = (body, at) =>
  body.mail_type === 'usps_standard' && body.size === '4x6'
    ? { message: `${at('mail_type')} usps_standard is not available for 4x6 postcards` }
    : undefined;

export const postcards = defineMailpiece({
  name: 'postcards',
  title: 'Postcard',
  object: 'postcard',
  idPrefix: 'psc',
  description: 'Postcards printed and mailed from front and back artwork.',
  artwork: [
    { field: 'front', what: 'The front artwork', required: true, named: true },
    { field: 'back', what: 'The back artwork (the address block is printed on it)', required: true, named: true },
  ],
  sizes: ['4x6', '6x9', '6x11'],
  takes: { qr_code: { sides: ['front', 'back'] }, fsc: true },
  rules: [standardNot4x6, notWith('fsc', 'size', ['4x6'])],
  placementRules: [domesticOnly('Postcards', 'invalid_international_feature', ['6x9', '6x11'])],
  sample: { id: 'psc_5c002b86ce47537a', size: '4x6', fsc: false },
});
