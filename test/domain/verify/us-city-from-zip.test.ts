// Live US verification over HTTP never claims what the ZIP database cannot back: a city the ZIP does
// not serve is replaced by the ZIP's own city when the ZIP has only one; a last line that contradicts
// itself (a ZIP of another state, a city far from its ZIP) is undeliverable with the vendor's no-match
// footnote (A1). Without street data the delivery point fields stay empty.
import { databaseSuite } from '../../helpers/suite';
import { conforms, freshAccount } from './helpers';

const { test } = databaseSuite();

const PATH = '/v1/us_verifications';

test('a city the ZIP does not serve is corrected from a one-city ZIP (1 Main St, New York CA 94107)', async (t, ctx) => {
  const { api, keys } = await freshAccount(ctx, { payment_method_verified: true });
  for (const json of [
    { address: '1 Main St, New York CA 94107' },
    { primary_line: '1 Main St', city: 'New York', state: 'CA', zip_code: '94107' },
  ]) {
    const r = await api('POST', PATH, { key: keys.live, json });
    conforms(t, 'POST', PATH, r);
    t.is(r.body.deliverability, 'deliverable', JSON.stringify(json));
    t.is(r.body.last_line, 'SAN FRANCISCO CA 94107');
    t.like(r.body.components, { city: 'SAN FRANCISCO', state: 'CA', zip_code: '94107', zip_code_plus_4: '' });
    t.like(r.body.deliverability_analysis, { dpv_confirmation: '', dpv_active: '', dpv_footnotes: [] });
  }
});

test('a last line that contradicts itself is undeliverable with the no-match footnote', async (t, ctx) => {
  const { api, keys } = await freshAccount(ctx, { payment_method_verified: true });
  for (const json of [
    { primary_line: '1 Main St', city: 'San Francisco', state: 'NY', zip_code: '94107' },
    { address: '1 Main St, San Diego CA 94107' },
    { primary_line: '1 Main St', zip_code: '00000' },
  ]) {
    const r = await api('POST', PATH, { key: keys.live, json });
    conforms(t, 'POST', PATH, r);
    t.is(r.body.deliverability, 'undeliverable', JSON.stringify(json));
    t.like(r.body.deliverability_analysis, { dpv_confirmation: '', dpv_vacant: '', dpv_footnotes: ['A1'] });
    t.is(r.body.components.latitude, null);
  }
});

test('a ZIP and a city it serves: deliverable, and nothing claimed about the delivery point', async (t, ctx) => {
  const { api, keys } = await freshAccount(ctx, { payment_method_verified: true });
  const r = await api('POST', PATH, {
    key: keys.live,
    json: { primary_line: '210 King St', city: 'San Francisco', state: 'CA', zip_code: '94107' },
  });
  conforms(t, 'POST', PATH, r);
  t.is(r.body.deliverability, 'deliverable');
  t.is(r.body.last_line, 'SAN FRANCISCO CA 94107');
  t.like(r.body.deliverability_analysis, { dpv_confirmation: '', dpv_footnotes: [], lacs_indicator: '' });
  t.is(r.body.components.record_type, '');
});
