// The operator's USPS identity is configuration: each value is checked when the engine starts (one
// sentence naming the variable), and what is missing of it is said rather than guessed.
import test from 'ava';
import { ConfigError, loadConfig, uspsOf } from '../../engine/platform/config';

const IDENTITY = {
  USPS_MAILER_ID: '123456',
  USPS_CRID: '12345678',
  USPS_PERMIT_NUMBER: '4321',
  USPS_PERMIT_CITY: 'San Francisco',
  USPS_PERMIT_STATE: 'ca',
};

test('a bad USPS value stops the start with a sentence naming its variable', (t) => {
  const refused = (name: string, value: string) =>
    t.throws(() => loadConfig({ ...IDENTITY, [name]: value }), { instanceOf: ConfigError })!.message;
  t.regex(refused('USPS_MAILER_ID', '12345'), /^USPS_MAILER_ID must be a USPS Mailer ID: 6 digits .*, got "12345"$/);
  t.regex(refused('USPS_MAILER_ID', '923456'), /USPS_MAILER_ID/, 'a 6-digit Mailer ID never starts with 9');
  t.regex(refused('USPS_MAILER_ID', '812345678'), /USPS_MAILER_ID/, 'a 9-digit one always does');
  t.regex(refused('USPS_CRID', 'abc'), /^USPS_CRID must be a USPS CRID/);
  t.regex(refused('USPS_PERMIT_NUMBER', '12-4'), /^USPS_PERMIT_NUMBER must be a permit number/);
  t.regex(refused('USPS_PERMIT_STATE', 'XX'), /^USPS_PERMIT_STATE must be the two-letter USPS code/);
  t.regex(refused('USPS_STID_MARKETING', '30'), /^USPS_STID_MARKETING must be a 3-digit/);
});

test('the identity, complete: 6- and 9-digit Mailer IDs, the STIDs per mail class (300 and 301 by default)', (t) => {
  const six = uspsOf(loadConfig(IDENTITY));
  t.deepEqual(six, {
    ready: true,
    identity: {
      mailerId: '123456',
      crid: '12345678',
      permit: { number: '4321', city: 'SAN FRANCISCO', state: 'CA' },
      serviceType: { usps_first_class: '300', usps_standard: '301' },
    },
  });
  const nine = uspsOf(loadConfig({ ...IDENTITY, USPS_MAILER_ID: '912345678', USPS_STID_FIRST_CLASS: '310' }));
  t.like(nine, { ready: true, identity: { mailerId: '912345678', serviceType: { usps_first_class: '310' } } });
});

test('an identity in part is not ready and names what is missing', (t) => {
  t.deepEqual(uspsOf(loadConfig({ USPS_MAILER_ID: '123456', USPS_PERMIT_CITY: 'Austin' })), {
    ready: false,
    missing: ['USPS_CRID', 'USPS_PERMIT_NUMBER', 'USPS_PERMIT_STATE'],
  });
  t.like(uspsOf(loadConfig({})), { ready: false });
});
