// The S3 store's request signing, checked against the worked example AWS publishes for Signature
// Version 4 (IAM ListUsers, 2015-08-30), so a bucket accepts what the engine sends.
import test from 'ava';
import { authorization, hashPayload, uriEncode } from '../../../engine/platform/assets/sigv4';

test('signature matches the published Signature Version 4 example', (t) => {
  const header = authorization(
    {
      method: 'GET',
      url: new URL('https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08'),
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8',
        Host: 'iam.amazonaws.com',
        'X-Amz-Date': '20150830T123600Z',
      },
      payloadHash: hashPayload(''),
      region: 'us-east-1',
      service: 'iam',
      amzDate: '20150830T123600Z',
    },
    { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
  );
  t.is(
    header,
    'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, ' +
      'SignedHeaders=content-type;host;x-amz-date, ' +
      'Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7',
  );
});

test('paths keep their slashes and encode everything outside the unreserved set', (t) => {
  t.is(uriEncode('postcards/psc_1 2.pdf', true), 'postcards/psc_1%202.pdf');
  t.is(uriEncode('a/b=c', false), 'a%2Fb%3Dc');
  t.is(uriEncode('é', false), '%C3%A9');
});
