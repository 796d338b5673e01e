// Names of Object.prototype's members are plain strings where a user's value is looked up in a table:
// a test-mode primary_line "constructor" was a 500 (DataCloneError), "__proto__" a 200 with `{}`.
import { databaseSuite } from '../../helpers/suite';
import { conforms, freshAccount } from './helpers';

const suite = databaseSuite();
const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

suite.test('test mode: a prototype name as primary_line is answered with the hint, single and bulk', async (t, ctx) => {
  const { api } = await freshAccount(ctx);
  for (const name of NAMES) {
    const single = await api('POST', '/v1/intl_verifications', { json: { primary_line: name, country: 'CA' } });
    conforms(t, 'POST', '/v1/intl_verifications', single);
    t.is(single.body.id, 'intl_ver_testkeys', `${name}: ${JSON.stringify(single.body)}`);
    const address = await api('POST', '/v1/intl_verifications', { json: { address: name, country: 'CA' } });
    t.is(address.body.id, 'intl_ver_testkeys', `${name}: ${JSON.stringify(address.body)}`);
    const bulk = await api('POST', '/v1/bulk/intl_verifications', {
      json: { addresses: [{ primary_line: name, country: 'CA' }] },
    });
    conforms(t, 'POST', '/v1/bulk/intl_verifications', bulk);
    t.is(bulk.body.addresses[0].id, 'intl_ver_testkeys', `${name}: ${JSON.stringify(bulk.body)}`);
  }
});
