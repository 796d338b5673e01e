// Validation at every depth, on the shape the mail resources will have: an address id or an inline
// address inside `to`, a file field, defaults inside nested objects.
import test from 'ava';
import { Type } from '@sinclair/typebox';
import { validate } from '../../engine/domain/validation/validate';
import { addressInput } from '../../engine/catalog/address-fields';
import { id } from '../../engine/catalog/fields';
import { receivedUpload, upload, type UploadRef } from '../../engine/catalog/uploads';
import { withRules } from '../../engine/catalog/rules';
import { ApiError } from '../../engine/base/errors';

const piece = Type.Object({
  to: Type.Union([id('adr', 'address'), addressInput()]),
  front: Type.Union([Type.String({ maxLength: 10_000 }), upload()]),
  options: Type.Optional(
    withRules(
      Type.Object({
        color: Type.Optional(Type.Boolean({ default: false })),
        copies: Type.Optional(Type.Integer({ default: 1 })),
      }),
      [
        (o, at) =>
          o.color === true && o.copies === 0 ? { message: `${at('copies')} must be at least 1 in color` } : undefined,
      ],
    ),
  ),
});

const inline = {
  name: 'Ada',
  address_line1: '185 Berry St',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
};
// as the multipart parser makes it: only such records pass as uploads
const file: UploadRef = receivedUpload({
  upload: true,
  field: 'front',
  filename: 'a.pdf',
  mimeType: 'application/pdf',
  path: '/tmp/x.upload',
  size: 3,
});

const messageOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
  return 'no error';
};

test('rules of an inline address run inside `to` and name the nested path', (t) => {
  t.is(
    messageOf(() => validate(piece, { to: { ...inline, address_city: undefined }, front: '<p>hi</p>' })),
    'to.address_city is required',
  );
  t.is(
    messageOf(() => validate(piece, { to: { ...inline, name: undefined }, front: '<p>hi</p>' })),
    'to.name or to.company is required',
  );
  t.is(
    messageOf(() => validate(piece, { to: { ...inline, address_zip: 'abc' }, front: '<p>hi</p>' })),
    'to.address_zip must be in the format 12345 or 12345-1234',
  );
});

test('an address id in `to` is not checked as an inline address', (t) => {
  t.is(validate(piece, { to: 'adr_123abc', front: 'x' }).to, 'adr_123abc');
});

test('unknown keys inside nested objects are refused like top-level ones', (t) => {
  t.is(
    messageOf(() => validate(piece, { to: { ...inline, favourite_colour: 'blue' }, front: 'x' })),
    'to.favourite_colour is not allowed',
  );
  t.is(
    messageOf(() => validate(piece, { to: 'adr_1', front: 'x', options: { colour: true } })),
    'options.colour is not allowed',
  );
  t.is(
    messageOf(() => validate(piece, { to: 'adr_1', front: 'x', extra: 1 })),
    'extra is not allowed',
  );
});

test('defaults apply at every depth', (t) => {
  const body = validate(piece, { to: inline, front: 'x', options: {} });
  t.deepEqual(body.options, { color: false, copies: 1 });
  t.is((body.to as Record<string, unknown>).address_country, 'US');
});

test('rules of nested objects see defaults and form-coerced values', (t) => {
  t.is(
    messageOf(() => validate(piece, { to: 'adr_1', front: 'x', options: { color: 'true', copies: '0' } })),
    'options.copies must be at least 1 in color',
  );
});

test('an uploaded file satisfies a required file field; a plain object does not', (t) => {
  t.is(validate(piece, { to: 'adr_1', front: file }).front, file);
  t.regex(
    messageOf(() => validate(piece, { to: 'adr_1', front: { path: '/etc/passwd' } })),
    /^front /,
  );
  t.is(
    messageOf(() => validate(piece, { to: 'adr_1' })),
    'front is required',
  );
});
