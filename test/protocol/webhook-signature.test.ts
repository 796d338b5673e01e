// The webhook signature both ends share (engine/protocol/webhook-signature.ts), against signatures
// computed outside it: each constant below is `openssl dgst -sha256 -hmac <secret>` over
// `<timestamp>.<body>`, so a change to what is signed, or how, fails here before either end drifts.
import test from 'ava';
import {
  checkSignature,
  headerValue,
  newWebhookSecret,
  NEW_SIGNATURE_HEADER,
  SIGNATURE_HEADER,
  SIGNATURE_TOLERANCE_S,
  signature,
  signedHeaders,
  TIMESTAMP_HEADER,
  verifySignature,
} from '../../engine/protocol/webhook-signature';

const OLD = 'whsec_old';
const NEW = 'whsec_new';
const TIMESTAMP = '1700000000';
const AT = Number(TIMESTAMP) * 1000;
const BODY = '{"id":"evt_1","object":"event"}';
// printf '%s' '1700000000.{"id":"evt_1","object":"event"}' | openssl dgst -sha256 -hmac whsec_old
const BODY_WITH_OLD = '9119b75c4afa8bb5f71433cb34179a57aa261c58b80b417f1f537251b0cd38a8';
// the same with -hmac whsec_new
const BODY_WITH_NEW = 'c15330950069e52feb112c7c495d04bcd2bef3e2784ee078587728d546bb99b6';
// bytes no string holds: printf '1700000000.caf\xc3\xa9 \x00\xff' | openssl dgst -sha256 -hmac whsec_old
const BYTES = Buffer.from([0x63, 0x61, 0x66, 0xc3, 0xa9, 0x20, 0x00, 0xff]);
const BYTES_WITH_OLD = 'c9655ac67c870ccaa81ec7d8494975411526339427eb9c36f14a357c47b3833c';

test('the signature is the hex HMAC-SHA256 of "timestamp.body", of a string or of its bytes', (t) => {
  t.is(signature(OLD, TIMESTAMP, BODY), BODY_WITH_OLD);
  t.is(signature(NEW, TIMESTAMP, BODY), BODY_WITH_NEW);
  t.is(signature(OLD, TIMESTAMP, Buffer.from(BODY, 'utf8')), BODY_WITH_OLD);
  t.is(signature(OLD, TIMESTAMP, BYTES), BYTES_WITH_OLD);
});

test('a delivery outside a rotation carries one signature, with the secret, at the second it was signed', (t) => {
  t.deepEqual(signedHeaders({ secret: OLD }, BODY, AT + 999), {
    'content-type': 'application/json',
    'service-signature-timestamp': TIMESTAMP,
    'service-signature': BODY_WITH_OLD,
  });
});

test("during a rotation's overlap the old secret signs Service-Signature and the new one Service-Signature-New; at its end the new one alone", (t) => {
  const secrets = { secret: NEW, previous: { secret: OLD, until: AT + 1 } };
  const during = signedHeaders(secrets, BODY, AT);
  t.is(during['service-signature'], BODY_WITH_OLD);
  t.is(during['service-signature-new'], BODY_WITH_NEW);
  t.true(checkSignature([OLD], BODY, during, AT).ok, 'a receiver that knows only the old secret');
  t.true(checkSignature([NEW], BODY, during, AT).ok, 'a receiver that knows only the new secret');
  t.deepEqual(checkSignature(['whsec_other'], BODY, during, AT), {
    ok: false,
    reason: 'Service-Signature does not match the body',
  });

  const after = signedHeaders(secrets, BODY, AT + 1);
  t.deepEqual(Object.keys(after).sort(), ['content-type', 'service-signature', 'service-signature-timestamp']);
  t.is(after['service-signature'], BODY_WITH_NEW);
  t.false(checkSignature([OLD], BODY, after, AT + 1).ok, 'the old secret no longer signs');
});

test('a timestamp is taken up to 5 minutes either side of now, and not a millisecond more', (t) => {
  const headers = { [TIMESTAMP_HEADER]: TIMESTAMP, [SIGNATURE_HEADER]: BODY_WITH_OLD };
  const edge = SIGNATURE_TOLERANCE_S * 1000;
  t.is(SIGNATURE_TOLERANCE_S, 300);
  t.true(checkSignature([OLD], BODY, headers, AT + edge).ok);
  t.true(checkSignature([OLD], BODY, headers, AT - edge).ok, 'a receiver whose clock is behind');
  t.deepEqual(checkSignature([OLD], BODY, headers, AT + edge + 1), {
    ok: false,
    reason: 'Service-Signature-Timestamp is more than 5 minutes away from now',
  });
  t.false(checkSignature([OLD], BODY, headers, AT - edge - 1).ok);
  t.true(verifySignature(OLD, BODY, TIMESTAMP, BODY_WITH_OLD, AT + edge));
  t.false(verifySignature(OLD, BODY, TIMESTAMP, BODY_WITH_OLD, AT + edge + 1));
});

test("Zapier's Http- header names, any case, and a repeated header's first value are read", (t) => {
  const zapier = { 'Http-Service-Signature-Timestamp': TIMESTAMP, 'Http-Service-Signature': BODY_WITH_OLD };
  t.true(checkSignature([OLD], BODY, zapier, AT).ok);
  const zapierRotating = {
    'Http-Service-Signature-Timestamp': TIMESTAMP,
    'Http-Service-Signature': BODY_WITH_OLD,
    'Http-Service-Signature-New': BODY_WITH_NEW,
  };
  t.true(checkSignature([NEW], BODY, zapierRotating, AT).ok);
  t.is(headerValue({ 'SERVICE-SIGNATURE-NEW': 'a' }, NEW_SIGNATURE_HEADER), 'a');
  t.is(headerValue({ 'service-signature': ['first', 'second'] }, SIGNATURE_HEADER), 'first');
  t.is(headerValue({ 'x-service-signature': 'a', 'service-signature': 7 }, SIGNATURE_HEADER), undefined);
  t.is(headerValue(undefined, SIGNATURE_HEADER), undefined);
});

test('the raw bytes are checked as received: a Buffer body, and one byte changed', (t) => {
  const headers = { 'service-signature-timestamp': TIMESTAMP, 'service-signature': BYTES_WITH_OLD };
  t.true(checkSignature([OLD], BYTES, headers, AT).ok);
  t.true(verifySignature(OLD, BYTES, TIMESTAMP, BYTES_WITH_OLD, AT));
  const changed = Buffer.from(BYTES);
  changed[7] = 0xfe;
  t.false(checkSignature([OLD], changed, headers, AT).ok);
  t.true(checkSignature([OLD], Buffer.from(BODY), { ...headers, 'service-signature': BODY_WITH_OLD }, AT).ok);
});

test('what is missing or malformed is refused, with the reason', (t) => {
  const refused = (headers: Record<string, unknown>) => {
    const check = checkSignature([OLD], BODY, headers, AT);
    return check.ok ? 'taken' : check.reason;
  };
  t.is(refused({ 'service-signature': BODY_WITH_OLD }), 'missing Service-Signature-Timestamp or Service-Signature');
  t.is(
    refused({ 'service-signature-timestamp': TIMESTAMP }),
    'missing Service-Signature-Timestamp or Service-Signature',
  );
  t.is(
    refused({ 'service-signature-timestamp': '1700000000.5', 'service-signature': BODY_WITH_OLD }),
    'Service-Signature-Timestamp is not Unix seconds',
  );
  t.is(
    refused({ 'service-signature-timestamp': TIMESTAMP, 'service-signature': `${BODY_WITH_OLD.slice(0, 63)}g` }),
    'Service-Signature does not match the body',
  );
  t.is(
    refused({ 'service-signature-timestamp': TIMESTAMP, 'service-signature': BODY_WITH_OLD.slice(0, 62) }),
    'Service-Signature does not match the body',
  );
  t.is(
    refused({ 'service-signature-timestamp': TIMESTAMP, 'service-signature': BODY_WITH_OLD.toUpperCase() }),
    'taken',
  );
  t.false(verifySignature(OLD, BODY, undefined, BODY_WITH_OLD, AT));
  t.false(verifySignature(OLD, BODY, TIMESTAMP, undefined, AT));
  t.false(verifySignature(`${OLD}x`, BODY, TIMESTAMP, BODY_WITH_OLD, AT));
});

test('a new secret is whsec_ and 32 URL-safe characters (24 random bytes), never the same twice', (t) => {
  const a = newWebhookSecret();
  const b = newWebhookSecret();
  t.regex(a, /^whsec_[\w-]{32}$/);
  t.not(a, b);
});
