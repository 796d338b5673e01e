// A realistic piece of a kind for the docs and packs: the shared fields here, the kind's own in its file.
import { templateFieldsOf, type UnsetTemplateIds } from './fields';
import type { ArtworkSide } from '../types';

const STAMP = '2026-11-20T18:39:45.123Z';

const address = (id: string, lines: Record<string, string>) => ({
  id,
  description: null,
  phone: null,
  email: null,
  address_line2: null,
  address_country: 'UNITED STATES',
  metadata: {},
  recipient_moved: false,
  ...lines,
  date_created: STAMP,
  date_modified: STAMP,
  object: 'address',
});

export const SAMPLE_TO = address('adr_d3489cd64c791ab5', {
  name: 'HARRY ZHANG',
  company: 'EXAMPLE CO',
  address_line1: '210 KING ST',
  address_city: 'SAN FRANCISCO',
  address_state: 'CA',
  address_zip: '94107-1741',
});

export const SAMPLE_FROM = address('adr_b8fb5acf1a5ff5d3', {
  name: 'LEORE AVIDAR',
  company: 'PRINTPOST',
  address_line1: '185 BERRY ST',
  address_city: 'SAN FRANCISCO',
  address_state: 'CA',
  address_zip: '94107-1728',
});

export function pieceSample(d: {
  name: string;
  object: string;
  artwork: readonly ArtworkSide[];
  unsetTemplateIds?: UnsetTemplateIds;
  sample: Record<string, unknown>;
}): Record<string, unknown> {
  const templates =
    d.unsetTemplateIds === 'absent'
      ? {}
      : Object.fromEntries(
          d.artwork.flatMap(({ field, named }) => templateFieldsOf(field, named).map((name) => [name, null])),
        );
  return {
    id: d.sample.id,
    to: SAMPLE_TO,
    from: SAMPLE_FROM,
    // the engine's asset links name the kind's folder and the piece's id, as the vendor's do
    url: `https://printpost.example.com/assets/${d.name.replace(/_/g, '-')}/${String(d.sample.id)}.pdf?expires=1798486785&signature=PL4EKPNjj7AbKvXr1ezdTHeD9UUCn3HByRmnNgtQ7Gs`,
    carrier: 'USPS',
    tracking_events: [],
    thumbnails: [],
    merge_variables: { name: 'Harry' },
    mail_type: 'usps_first_class',
    send_date: STAMP,
    expected_delivery_date: '2026-11-30',
    use_type: 'marketing',
    description: 'Demo piece',
    metadata: {},
    campaign_id: null,
    billing_group_id: null,
    status: 'processed',
    failure_reason: null,
    ...templates,
    ...d.sample,
    date_created: STAMP,
    date_modified: STAMP,
    object: d.object,
  };
}
