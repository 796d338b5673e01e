// A real S3-compatible server for tests: s3rver from npm on 127.0.0.1, a bucket in a temp folder,
// and the environment an engine needs to keep its files there (ASSET_STORE=s3://…).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import S3rver from 's3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

export interface TestBucket {
  endpoint: string;
  bucket: string;
  /** ASSET_STORE, S3_ENDPOINT and AWS_* for an engine, under `prefix` in the bucket */
  env(prefix?: string): Record<string, string>;
  /** every key in the bucket (under `prefix`), read with the AWS SDK */
  keys(prefix?: string): Promise<string[]>;
  close(): Promise<void>;
}

// s3rver takes any key pair; these are its documented defaults
const KEY_ID = 'S3RVER';
const SECRET = 'S3RVER';

export async function startBucket(): Promise<TestBucket> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-s3-'));
  const bucket = `pp-${randomBytes(4).toString('hex')}`;
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  // an engine started in this process finds its keys where the AWS SDK looks: the environment (and
  // the SDK's notice that its 2027 releases need Node 22 is not news to these tests)
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  process.env.AWS_ACCESS_KEY_ID = KEY_ID;
  process.env.AWS_SECRET_ACCESS_KEY = SECRET;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: KEY_ID, secretAccessKey: SECRET },
  });
  return {
    endpoint,
    bucket,
    env: (prefix = 'assets') => ({
      ASSET_STORE: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      AWS_ACCESS_KEY_ID: KEY_ID,
      AWS_SECRET_ACCESS_KEY: SECRET,
      AWS_REGION: 'us-east-1',
    }),
    keys: async (prefix = '') => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        keys.push(...(page.Contents ?? []).map((o) => String(o.Key)));
        token = page.NextContinuationToken;
      } while (token);
      return keys;
    },
    close: async () => {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
