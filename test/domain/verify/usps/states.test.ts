import test from 'ava';
import { stateCode, stateName, isMilitaryState, US_STATES } from '../../../../engine/domain/verify/usps';

test('two-letter codes in any case', (t) => {
  t.is(stateCode('IL'), 'IL');
  t.is(stateCode('il'), 'IL');
  t.is(stateCode(' Ca '), 'CA');
  t.is(stateCode('D.C.'), 'DC');
  t.is(stateCode('N.Y.'), 'NY');
});

test('full names in any case with extra spaces', (t) => {
  t.is(stateCode('Illinois'), 'IL');
  t.is(stateCode('  new   york '), 'NY');
  t.is(stateCode('NORTH CAROLINA'), 'NC');
  t.is(stateCode('west virginia'), 'WV');
  t.is(stateCode('District of Columbia'), 'DC');
  t.is(stateCode('Washington DC'), 'DC');
});

test('territories and freely associated states', (t) => {
  t.is(stateCode('Puerto Rico'), 'PR');
  t.is(stateCode('virgin islands'), 'VI');
  t.is(stateCode('U.S. Virgin Islands'), 'VI');
  t.is(stateCode('Guam'), 'GU');
  t.is(stateCode('American Samoa'), 'AS');
  t.is(stateCode('Northern Mariana Islands'), 'MP');
  t.is(stateCode('Federated States of Micronesia'), 'FM');
  t.is(stateCode('Marshall Islands'), 'MH');
  t.is(stateCode('Palau'), 'PW');
});

test('military state codes and names', (t) => {
  t.is(stateCode('Armed Forces Europe'), 'AE');
  t.is(stateCode('armed forces pacific'), 'AP');
  t.is(stateCode('Armed Forces Americas'), 'AA');
  t.is(stateCode('Armed Forces Middle East'), 'AE');
  t.is(stateCode('ae'), 'AE');
  t.true(isMilitaryState('AP'));
  t.false(isMilitaryState('CA'));
});

test('unknown input gives undefined', (t) => {
  t.is(stateCode(''), undefined);
  t.is(stateCode('XX'), undefined);
  t.is(stateCode('Ontario'), undefined);
  t.is(stateCode('Calif'), undefined);
});

test('the list has 50 states, DC, 8 territories and 3 military codes, each name round-trips', (t) => {
  t.is(US_STATES.length, 62);
  t.is(US_STATES.filter((s) => s.kind === 'state').length, 50);
  t.is(new Set(US_STATES.map((s) => s.code)).size, 62);
  for (const s of US_STATES) {
    t.is(stateCode(s.name), s.code);
    t.is(stateCode(s.code.toLowerCase()), s.code);
    t.is(stateName(s.code), s.name);
  }
});
