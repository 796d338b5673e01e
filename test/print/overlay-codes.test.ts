// The encodings the overlay prints, checked on their own: the IMb against USPS-B-3200's published
// examples and a decoder written from the spec, amounts in words, the MICR line, tracking numbers.
import test from 'ava';
import fc from 'fast-check';
import { addressLines } from '../../engine/print/overlay/address-block';
import { amountInWords, protectedFigures } from '../../engine/print/overlay/amount-words';
import { imbBars, imbRouting, imbTracking, sampleTracking } from '../../engine/print/overlay/imb';
import { micrAscii, micrPositions, micrText } from '../../engine/print/overlay/micr';
import {
  impbNumber,
  mod10,
  s10Check,
  s10Number,
  sampleTrackingNumber,
  trackingNumberOf,
} from '../../engine/print/overlay/tracking-number';
import { isDomestic, overlayPiece } from '../../engine/print/overlay/types';
import { decodeImb, imbCrc } from '../helpers/imb-decode';

const TO_US = { address_line1: '1 Main St', address_zip: '94107' };

// USPS-B-3200, appendix examples: one tracking code with each length of routing code.
const TRACKING = '01234567094987654321';
const PUBLISHED: [string, string][] = [
  ['', 'ATTFATTDTTADTAATTDTDTATTDAFDDFADFDFTFFFFFTATFAAAATDFFTDAADFTFDTDT'],
  ['01234', 'DTTAFADDTTFTDTFTFDTDDADADAFADFATDDFTAAAFDTTADFAAATDFDTDFADDDTDFFT'],
  ['012345678', 'ADFTTAFDTTTTFATTADTAAATFTFTATDAAAFDDADATATDTDTTDFDTDATADADTDFFTFA'],
  ['01234567891', 'AADTFFDFTDADTAADAATFDTDDAAADDTDTTDAFADADDDTFFFDDTTTADFAAADFTDAADA'],
];

for (const [routing, bars] of PUBLISHED) {
  test(`IMb published example, routing '${routing}': encoded and decoded`, (t) => {
    t.is(imbBars(TRACKING, routing), bars);
    t.deepEqual(decodeImb(bars), { tracking: TRACKING, routing });
  });
}

test('the frame check of the spec example is 0x051', (t) => {
  // binary data of the first example: 00 00 00 00 00 11 22 10 3B 5C 20 04 B1
  t.is(imbCrc(0x1122103b5c2004b1n), 0x051);
});

test('IMb round trip: any tracking and routing code comes back through the decoder', (t) => {
  const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n });
  const tracking = fc
    .tuple(digits(1), fc.integer({ min: 0, max: 4 }), digits(18))
    .map(([a, b, rest]) => `${a.join('')}${b}${rest.join('')}`);
  const routing = fc.constantFrom(0, 5, 9, 11).chain((n) => digits(n).map((d) => d.join('')));
  fc.assert(
    fc.property(tracking, routing, (trk, rte) => {
      const decoded = decodeImb(imbBars(trk, rte));
      return decoded.tracking === trk && decoded.routing === rte;
    }),
    { numRuns: 300 },
  );
  t.pass();
});

test('a damaged IMb fails the decoder, never decodes to something else', (t) => {
  const [, bars] = PUBLISHED[3];
  let refused = 0;
  for (let i = 0; i < bars.length; i++) {
    const flipped = bars.slice(0, i) + (bars[i] === 'T' ? 'F' : 'T') + bars.slice(i + 1);
    try {
      decodeImb(flipped);
    } catch {
      refused++;
    }
  }
  t.is(refused, bars.length);
  t.throws(() => decodeImb(bars.split('').reverse().join('')));
});

test('sample tracking code: barcode id, service type, the sample mailer id, a serial fixed by the piece id', (t) => {
  t.regex(sampleTracking('psc_1'), /^00300999999\d{9}$/);
  t.regex(sampleTracking('psc_1', 'usps_standard'), /^00301999999\d{9}$/);
  t.is(sampleTracking('psc_1'), sampleTracking('psc_1'));
  t.not(sampleTracking('psc_1'), sampleTracking('psc_2'));
  t.throws(() => imbBars('0050099999912345678', '94107'), { instanceOf: RangeError });
});

test("a configured Mailer ID leaves the rest to the serial: 9 digits after 6, 6 after 9; the mail type's STID", (t) => {
  const types = { usps_first_class: '310', usps_standard: '311' };
  t.is(imbTracking(42, null, { mailerId: '123456', serviceType: types }), '00310123456000000042');
  t.is(imbTracking(42, 'usps_standard', { mailerId: '912345678', serviceType: types }), '00311912345678000042');
  t.throws(() => imbTracking(1_000_000, null, { mailerId: '912345678' }), { instanceOf: RangeError });
});

test('routing code from the ZIP: 5, 9 (+4 given), 11 digits (+ delivery point)', (t) => {
  const to = { address_line1: '1 Main St', address_zip: '94107' };
  t.is(imbRouting(to), '94107');
  t.is(imbRouting({ ...to, address_zip: '94107-1741' }), '941071741');
  t.is(imbRouting({ ...to, address_zip: '94107-1741' }, '10'), '94107174110');
  t.is(imbRouting(to, '10'), '94107');
  t.is(imbRouting({ ...to, address_zip: 'C1N 1C4' }), '');
});

test('address lines: USPS last line at home, the country line abroad', (t) => {
  const home = {
    name: 'A',
    address_line1: '1 Main St',
    address_city: 'Austin',
    address_state: 'TX',
    address_zip: '78701',
  };
  t.deepEqual(addressLines(home), ['A', '1 Main St', 'Austin TX  78701']);
  t.deepEqual(addressLines({ ...home, company: 'ACME', address_country: 'UNITED STATES' }), [
    'A',
    'ACME',
    '1 Main St',
    'Austin TX  78701',
  ]);
  const abroad = { company: 'Maple', address_line1: '1 Rue', address_city: 'Paris', address_zip: '75001' };
  t.deepEqual(addressLines({ ...abroad, address_country: 'FR' }), ['Maple', '1 Rue', 'Paris 75001', 'FRANCE']);
  t.deepEqual(addressLines({ ...abroad, address_country: 'FRANCE' }).at(-1), 'FRANCE');
});

test('amounts in words and in protected figures', (t) => {
  const cases: [number, string][] = [
    [1234.56, 'One thousand two hundred thirty-four and 56/100 dollars'],
    [0.01, 'Zero and 01/100 dollars'],
    [22.5, 'Twenty-two and 50/100 dollars'],
    [17, 'Seventeen and 00/100 dollars'],
    [1001, 'One thousand one and 00/100 dollars'],
    [100000, 'One hundred thousand and 00/100 dollars'],
    [110011.11, 'One hundred ten thousand eleven and 11/100 dollars'],
    [999999.99, 'Nine hundred ninety-nine thousand nine hundred ninety-nine and 99/100 dollars'],
    [0.1 + 0.2, 'Zero and 30/100 dollars'],
  ];
  for (const [amount, words] of cases) t.is(amountInWords(amount), words);
  t.is(protectedFigures(1234.56), '$*****1,234.56');
  t.is(protectedFigures(999999.99), '$***999,999.99');
  t.throws(() => amountInWords(1_000_000));
  t.throws(() => amountInWords(-1));
});

test('MICR line: symbols, ASCII stand-ins and ANSI positions', (t) => {
  const fields = { checkNumber: '10001', routing: '322271627', account: '000123456789' };
  t.is(micrText(fields), '\u244810001\u2448 \u2446322271627\u2446 000123456789\u2448');
  t.is(micrAscii(fields), 'C10001C A322271627A 000123456789C');
  const at = micrPositions(fields);
  t.is(at.get(14), '\u2448'); // on-us symbol closes the on-us field
  t.is(at.get(15), '9');
  t.is(at.get(32), '\u2446');
  t.is(at.get(33), '7');
  t.is(at.get(42), '\u2446');
  t.is(at.get(44), '\u2448');
  t.is(at.get(49), '1');
  t.is(at.get(50), '\u2448');
  t.false(
    [...at.keys()].some((p) => p <= 13),
    'positions 1-13 stay blank for the amount',
  );
});

test('tracking numbers: IMpb with a valid mod 10 check digit, S10 with its check digit, kept when given', (t) => {
  const to = { address_line1: '1 Main St', address_zip: '94107' };
  const certified = trackingNumberOf({ id: 'ltr_1', to, extra_service: 'certified' });
  t.regex(certified.value, /^\d{22}$/);
  t.is(mod10(certified.value.slice(0, 21)), certified.value[21]);
  t.is(certified.barcodeText, `(420)94107(93)${certified.value.slice(2)}`);
  t.is(certified.display.replace(/ /g, ''), certified.value);
  // the GS1 mod 10 of EAN-13 4006381333931
  t.is(mod10('400638133393'), '1');
  const registered = trackingNumberOf({ id: 'ltr_2', to, extra_service: 'registered' });
  t.regex(registered.value, /^RR\d{9}US$/);
  t.is(s10Check(registered.value.slice(2, 10)), registered.value[10]);
  // the S10 example AA473124829GB: weights 8 6 4 2 3 5 9 7 sum to 200, 11 - 200 mod 11 = 9
  t.is(s10Check('47312482'), '9');
  t.is(
    trackingNumberOf({ id: 'x', to, extra_service: 'certified', tracking_number: '9407 1118 9956 0000 0000 17' }).value,
    '9407111899560000000017',
  );
});

test('overlayPiece reads a stored piece loosely: unknown values dropped, not trusted', (t) => {
  const piece = overlayPiece({
    id: 'ltr_1',
    date_created: '2026-01-05T00:00:00.000Z',
    to: { name: 'A', address_line1: '1 Main St', address_zip: '00901', address_country: 'PR', extra: 1 },
    from: 'adr_123',
    extra_service: 'express',
    perforated_page: '2',
    double_sided: false,
    bank_account: { routing_number: '322271627', account_number: '1', signatory: 'S', bank_name: null },
  });
  t.deepEqual(piece.to, {
    name: 'A',
    company: null,
    address_line1: '1 Main St',
    address_line2: null,
    address_city: null,
    address_state: null,
    address_zip: '00901',
    address_country: 'PR',
  });
  t.is(piece.from, null);
  t.is(piece.extra_service, null);
  t.is(piece.perforated_page, null);
  t.is(piece.double_sided, false);
  t.is(piece.bank_account?.signatory, 'S');
  t.true(isDomestic(piece.to), 'a territory is domestic mail');
  t.false(isDomestic({ address_line1: 'x', address_country: 'CANADA' }));
});

test('IMpb layout of Pub 199: channel 93 with a 6-digit Mailer ID, 92 with a 9-digit one, then STC, MID, serial, check', (t) => {
  const six = impbNumber('certified', '123456', 42);
  t.is(six, `93921123456${'42'.padStart(10, '0')}${mod10(`93921123456${'42'.padStart(10, '0')}`)}`);
  t.is(six.length, 22);
  const nine = impbNumber('certified_return_receipt', '912345678', 7);
  t.is(nine.slice(0, 14), '92923912345678', 'AI 92, return receipt STC, the 9-digit Mailer ID');
  t.is(nine.slice(14, 21), '0000007', '7 serial digits left');
  t.is(mod10(nine.slice(0, 21)), nine[21]);
});

test('S10 numbers: the service indicator, 8 serial digits, the check digit, US', (t) => {
  t.is(s10Number('RA', 47312482), 'RA473124829US');
  t.is(s10Number('RR', 5), `RR00000005${s10Check('00000005')}US`);
});

test('sample numbers of test pieces: the sample Mailer ID and the sample S10 range, fixed by the piece id', (t) => {
  for (let i = 0; i < 50; i++) {
    const registered = sampleTrackingNumber('registered', `ltr_${i}`);
    t.regex(registered, /^RR99\d{7}US$/);
    t.is(s10Check(registered.slice(2, 10)), registered[10], 'its S10 check digit');
    t.is(
      trackingNumberOf({ id: 'ltr_r', to: TO_US, extra_service: 'registered', tracking_number: registered }).value,
      registered,
    );
    const certified = sampleTrackingNumber('certified', `ltr_${i}`);
    t.regex(certified, /^93921999999\d{11}$/);
    t.is(mod10(certified.slice(0, 21)), certified[21]);
  }
  t.is(sampleTrackingNumber('certified', 'ltr_1'), sampleTrackingNumber('certified', 'ltr_1'));
});
