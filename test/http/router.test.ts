import test from 'ava';
import { Router } from '../../engine/http/router';
import { apiRoutes, engineRoute, type Route } from '../../engine/http/routes';

const router = new Router<Route>([...apiRoutes(), engineRoute('GET', '/v1/things/{folder}/{file}', () => undefined)]);

test('literals compare without case, one trailing slash is allowed, a doubled one is not', (t) => {
  t.is(router.match('GET', '/V1/Addresses/adr_1')?.route.label, 'GET /v1/addresses/{id}');
  t.deepEqual(router.match('GET', '/V1/Addresses/Adr_X')?.params, { id: 'Adr_X' }, 'parameters keep their case');
  t.is(router.match('GET', '/v1/addresses/')?.route.label, 'GET /v1/addresses');
  t.is(router.match('GET', '/v1/addresses//'), undefined);
  t.is(router.match('GET', '/v1//addresses'), undefined);
});

test('parameters are percent-decoded; broken encodings and NULs are kept as written', (t) => {
  t.deepEqual(router.match('GET', '/v1/addresses/a%2Fb')?.params, { id: 'a/b' });
  t.deepEqual(router.match('GET', '/v1/addresses/%E0%A4%A')?.params, { id: '%E0%A4%A' });
  t.deepEqual(router.match('GET', '/v1/addresses/x%00y')?.params, { id: 'x%00y' });
  t.deepEqual(router.match('GET', '/v1/things/a%20b/c')?.params, { folder: 'a b', file: 'c' });
});

test('a literal path wins over a parameter; HEAD takes the GET route; other methods learn what the path serves', (t) => {
  t.is(router.match('POST', '/v1/bulk/us_verifications')?.route.label, 'POST /v1/bulk/us_verifications');
  t.is(router.match('HEAD', '/v1/addresses/adr_1')?.route.label, 'GET /v1/addresses/{id}');
  t.deepEqual(router.find('PUT', '/v1/addresses/adr_1'), { allowed: ['HEAD', 'GET', 'DELETE'] });
  t.deepEqual(router.find('PATCH', '/v1/addresses'), { allowed: ['HEAD', 'GET', 'POST'] });
  t.is(router.find('GET', '/v1/nothing/here/at/all'), undefined);
  t.is(router.find('GET', '/v1/addresses/adr_1/extra'), undefined);
});
