import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import {
  SIGNED_LINK_PATTERN,
  matchVendorPath,
  vendorDocument,
  vendorRequestErrors,
  vendorRequestSchema,
  vendorResponseErrors,
} from './vendorSchema';
import { deref, isObject, resolvePointer, type JsonObject, type JsonValue } from './vendorSchemaConvert';

/** An example taken verbatim from the vendor YAML (deep-cloned so tests may mutate it). */
function example(pointer: string): JsonObject {
  const value = resolvePointer(vendorDocument(), pointer);
  if (!isObject(value)) throw new Error(`no example object at ${pointer}`);
  return structuredClone(value);
}

const POST_ADDRESS = '#/components/responses/post_address/content/application~1json/examples';
const usAddress = (): JsonObject => example(`${POST_ADDRESS}/full_us/value`);
const intlAddress = (): JsonObject => example(`${POST_ADDRESS}/full_intl/value`);
const addressList = (): JsonObject => example('#/components/responses/all_addresses/content/application~1json/example');
const errorBody = (): JsonObject => example('#/components/responses/address_error/content/application~1json/example');

test('maps concrete request paths onto the document path templates', (t) => {
  t.is(matchVendorPath('/v1/addresses/adr_123'), '/addresses/{adr_id}');
  t.is(matchVendorPath('/v1/addresses?limit=2&include[]=total_count'), '/addresses');
  t.is(matchVendorPath('http://127.0.0.1:5555/v1/addresses/'), '/addresses');
  t.is(matchVendorPath('/addresses/{adr_id}'), '/addresses/{adr_id}');
  t.is(matchVendorPath('/v1/us_verifications'), '/us_verifications');
  t.is(matchVendorPath('/v1/uploads/upl_1/exports/ex_2'), '/uploads/{upl_id}/exports/{ex_id}');
  t.is(matchVendorPath('/v1/nope'), undefined);
  t.regex(vendorResponseErrors('GET', '/v1/nope', 200, {})[0] ?? '', /no vendor path template matches/);
});

test('accepts the YAML address examples (US and international)', (t) => {
  t.deepEqual(vendorResponseErrors('GET', '/v1/addresses/adr_d3489cd64c791ab5', 200, usAddress()), []);
  t.deepEqual(vendorResponseErrors('POST', '/v1/addresses', 200, usAddress()), []);
  t.deepEqual(vendorResponseErrors('GET', '/v1/addresses/adr_b9f49f464c836203', 200, intlAddress()), []);
  // nullable: true -> null accepted
  const withNulls = { ...usAddress(), address_line2: null, description: null, phone: null };
  t.deepEqual(vendorResponseErrors('GET', '/v1/addresses/adr_1', 200, withNulls), []);
});

test('rejects a wrong address object with readable errors', (t) => {
  const wrong = usAddress();
  wrong.id = 'address-123';
  wrong.object = 'addr';
  wrong.date_created = 'yesterday';
  delete wrong.date_modified;
  const errors = vendorResponseErrors('GET', '/v1/addresses/adr_1', 200, wrong);
  t.true(
    errors.some((e) => e.startsWith('/id must match pattern "^adr_[a-zA-Z0-9]+$"')),
    errors.join('\n'),
  );
  t.true(errors.some((e) => e.startsWith('/object must be equal to one of the allowed values: "address"')));
  t.true(errors.some((e) => e.startsWith('/date_created must match format "date-time"')));
  t.true(errors.some((e) => e.includes("must have required property 'date_modified' [lob_base#/required]")));
  t.true(errors.some((e) => e.startsWith('(root) must match exactly one schema in oneOf [address#/oneOf]')));

  const notNullable = { ...usAddress(), address_line1: null };
  t.true(
    vendorResponseErrors('GET', '/v1/addresses/adr_1', 200, notNullable).some((e) =>
      e.startsWith('/address_line1 must be string'),
    ),
  );

  const noName = usAddress();
  delete noName.name;
  delete noName.company;
  t.true(
    vendorResponseErrors('GET', '/v1/addresses/adr_1', 200, noName).some((e) => e.includes("required property 'name'")),
  );
});

test('accepts the YAML list envelope of addresses and rejects a broken one', (t) => {
  t.deepEqual(vendorResponseErrors('GET', '/v1/addresses?limit=2', 200, addressList()), []);
  t.deepEqual(vendorResponseErrors('GET', '/v1/addresses', 200, { ...addressList(), total_count: 2 }), []);

  const broken = addressList();
  broken.next_url = 42;
  broken.count = '2';
  const data = broken.data as JsonObject[];
  data[1] = { ...data[1], id: 'ltr_123', address_country: 'CA' };
  const errors = vendorResponseErrors('GET', '/v1/addresses?limit=2', 200, broken);
  t.true(
    errors.some((e) => e.startsWith('/next_url must be string,null')),
    errors.join('\n'),
  );
  t.true(errors.some((e) => e.startsWith('/count must be integer')));
  t.true(errors.some((e) => e.startsWith('/data/1/id must match pattern')));
  t.true(errors.some((e) => e.startsWith('/data/1/address_country must be equal to one of the allowed values')));
  t.false(errors.some((e) => e.startsWith('/data/0/')));

  t.true(
    vendorResponseErrors('GET', '/v1/addresses', 200, { ...addressList(), data: {} }).some((e) =>
      e.startsWith('/data must be array'),
    ),
  );
});

test('accepts the YAML error body and rejects malformed ones', (t) => {
  t.deepEqual(vendorResponseErrors('GET', '/v1/addresses/adr_404', 404, errorBody()), []);
  t.deepEqual(
    vendorResponseErrors('POST', '/v1/addresses', 422, {
      error: { message: 'address_line1 is required', status_code: 422, code: 'invalid' },
    }),
    [],
  );
  const errors = vendorResponseErrors('GET', '/v1/addresses/adr_404', 404, {
    error: { status_code: 418, code: 'teapot' },
  });
  t.true(
    errors.some((e) => e.includes("/error must have required property 'message'")),
    errors.join('\n'),
  );
  t.true(errors.some((e) => e.startsWith('/error/status_code must be equal to one of the allowed values: 401, 403')));
  t.true(errors.some((e) => e.startsWith('/error/code must be equal to one of the allowed values')));
  t.true(
    vendorResponseErrors('GET', '/v1/addresses/adr_404', 404, { message: 'not found' }).some((e) =>
      e.includes("required property 'error'"),
    ),
  );
});

test('validates address deletion responses', (t) => {
  t.deepEqual(
    vendorResponseErrors('DELETE', '/v1/addresses/adr_123456789', 200, { id: 'adr_123456789', deleted: true }),
    [],
  );
  const errors = vendorResponseErrors('DELETE', '/v1/addresses/adr_1', 200, { id: 'x', deleted: 'yes' });
  t.is(errors.length, 2, errors.join('\n'));
});

test('every address and verification example in the YAML validates', (t) => {
  const doc = vendorDocument();
  const paths = doc.paths as JsonObject;
  let checked = 0;
  for (const template of [
    '/addresses',
    '/us_verifications',
    '/intl_verifications',
    '/us_autocompletions',
    '/us_zip_lookups',
    '/bulk/us_verifications',
    '/bulk/intl_verifications',
  ]) {
    const item = deref(doc, paths[template]) as JsonObject;
    for (const verb of ['get', 'post']) {
      const op = deref(doc, item[verb]);
      if (!isObject(op)) continue;
      const ok = deref(doc, (deref(doc, op.responses) as JsonObject)['200']) as JsonObject;
      const media = deref(doc, (deref(doc, ok.content) as JsonObject)['application/json']) as JsonObject;
      const examples: JsonValue[] = media.example !== undefined ? [media.example] : [];
      for (const ex of Object.values(isObject(media.examples) ? media.examples : {})) {
        const value = deref(doc, ex);
        if (isObject(value)) examples.push(value.value);
      }
      for (const body of examples) {
        t.deepEqual(vendorResponseErrors(verb, `/v1${template}`, 200, body), [], `${verb} ${template}`);
        checked++;
      }
    }
  }
  t.true(checked >= 10);
});

test('vendorRequestSchema returns a self-contained, ajv-ready request schema', (t) => {
  const schema = vendorRequestSchema('POST', '/addresses');
  t.truthy(schema);
  const components = (schema?.components as JsonObject).schemas as JsonObject;
  t.truthy(components.address_editable_us);
  t.falsy(JSON.stringify(schema).includes('"nullable"'));
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const validate = ajv.compile(schema as JsonObject);
  const body = example('#/paths/~1addresses/post/requestBody/content/application~1json/examples/full_us/value');
  t.true(validate(body), JSON.stringify(validate.errors));
  t.false(validate({ ...body, address_zip: 'ABC' }));
  t.is(vendorRequestSchema('GET', '/addresses'), undefined);
  t.deepEqual(vendorRequestErrors('POST', '/v1/addresses', body), []);
  t.true(vendorRequestErrors('POST', '/v1/addresses', { name: 'x' }).length > 0);
});

/** Every asset link the vendor's document shows, in the folders its signed_link names. */
function vendorLinks(value: JsonValue, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) vendorLinks(item, into);
  else if (isObject(value)) for (const item of Object.values(value)) vendorLinks(item, into);
  else if (
    typeof value === 'string' &&
    /^https:\/\/lob-assets\.com\/(letters|postcards|checks|self-mailers|cards|bank-accounts|order-creatives)\//.test(
      value,
    )
  )
    into.push(value);
  return into;
}

test('signed links: the vendor pattern fits none of its own links; the SDK-shaped one fits all, on any origin', (t) => {
  const raw = JSON.parse(
    readFileSync(path.join(__dirname, '..', 'fixtures', 'vendor-openapi.schema.json'), 'utf8'),
  ) as JsonObject;
  const signedLink = ((raw.components as JsonObject).schemas as JsonObject).signed_link as JsonObject;
  const published = new RegExp(String(signedLink.pattern), 'u');
  const corrected = new RegExp(SIGNED_LINK_PATTERN, 'u');
  const links = vendorLinks(raw);
  t.true(links.length > 50);
  t.deepEqual(
    links.filter((l) => published.test(l)),
    [],
    'the published pattern refuses every example',
  );
  t.deepEqual(
    links.filter((l) => !corrected.test(l)),
    [],
  );
  const ours = 'http://127.0.0.1:4010/assets/postcards/psc_5c002b86ce47537a.pdf?expires=1798486785&signature=PL4E-_x';
  t.true(corrected.test(ours));
  t.true(
    corrected.test(
      'https://mail.example.com/assets/snap-packs/ord_2f6c0d8e1b9a4c7d3e5f60718a_thumb_small_1.png?expires=1798486785&signature=x',
    ),
  );
  t.false(corrected.test('https://mail.example.com/assets/postcards/psc_5c002b86ce47537a.pdf'), 'unsigned');
  t.false(corrected.test('postcards/psc_5c002b86ce47537a.pdf?expires=1798486785&signature=x'), 'a bare key');
  const card = { ...example('#/components/mediaTypes/postcard/application~1json/examples/basic/value'), url: null };
  t.true(
    vendorResponseErrors('GET', '/v1/postcards/psc_1', 200, card).some((e) => e.startsWith('/url must be string')),
  );
});

test('allOf [$ref, {nullable: true}] admits null (as the vendor SDK types it); a plain $ref does not', (t) => {
  const schemas = (vendorDocument().components as JsonObject).schemas as JsonObject;
  const postcard = (schemas.postcard as JsonObject).allOf as JsonObject[];
  const own = postcard.find((branch) => isObject(branch.properties)) as JsonObject;
  t.deepEqual(((own.properties as JsonObject).failure_reason as JsonObject).allOf, [
    { $ref: '#/components/schemas/failure_reason' },
    { nullable: true },
  ]);
  const card = example('#/components/mediaTypes/postcard/application~1json/examples/basic/value');
  t.deepEqual(vendorResponseErrors('GET', '/v1/postcards/psc_1', 200, { ...card, failure_reason: null }), []);
  const check = example('#/components/mediaTypes/check/application~1json/example');
  const errors = vendorResponseErrors('GET', '/v1/checks/chk_1', 200, { ...check, check_bottom_template_id: null });
  t.true(
    errors.some((e) => e.startsWith('/check_bottom_template_id must be string')),
    errors.join('\n'),
  );
});
