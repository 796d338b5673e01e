// HTTPS: plain HTTP only from loopback; a trusted proxy must say https; the engine can terminate TLS.
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import https from 'node:https';
import { execFileSync } from 'node:child_process';
import { startEngine } from '../helpers/engine';

const auth = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

test('behind a trusted proxy, plain HTTP is refused and X-Forwarded-Proto https is served', async (t) => {
  const engine = await startEngine({ env: { TRUSTED_PROXIES: '127.0.0.1,::ffff:127.0.0.1' } });
  try {
    const plain = await fetch(`${engine.url}/v1/addresses`, { headers: { authorization: auth(engine.keys.test) } });
    t.is(plain.status, 401);
    const body = (await plain.json()) as { error: { message: string } };
    t.regex(body.error.message, /HTTPS/);
    const forwarded = await fetch(`${engine.url}/v1/addresses`, {
      headers: { authorization: auth(engine.keys.test), 'x-forwarded-proto': 'https' },
    });
    t.is(forwarded.status, 200);
  } finally {
    await engine.close();
  }
});

test('with a certificate configured the engine serves HTTPS itself', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-tls-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-days',
      '1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  const engine = await startEngine({ env: { TLS_CERT_FILE: cert, TLS_KEY_FILE: key } });
  try {
    t.true(engine.url.startsWith('https://'));
    const status = await new Promise<number>((resolve, reject) => {
      https
        .get(
          `${engine.url}/v1/addresses`,
          { ca: fs.readFileSync(cert), rejectUnauthorized: false, headers: { authorization: auth(engine.keys.test) } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on('error', reject);
    });
    t.is(status, 200);
  } finally {
    await engine.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
