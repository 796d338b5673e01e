// A delivery to the trigger: its signature and timestamp checked with the secrets the node kept when it
// registered the webhook or rotated its secret (a bad or stale one is answered 401 and starts nothing),
// then the event, or only its body, emitted as one item.
import { jsonParse, type IDataObject, type IWebhookFunctions, type IWebhookResponseData } from 'n8n-workflow';
import { checkSignature } from '../../engine/protocol/webhook-signature';
import { dataObjectOr, isDataObject } from '../../nodes/Printpost/data-object';
import { knownSecrets } from './webhooks';

/** The bytes the engine signed, when they check out; else why not. */
async function signedBody(this: IWebhookFunctions): Promise<{ body: Buffer } | { refused: string }> {
  const secrets = knownSecrets(this.getWorkflowStaticData('node'));
  if (secrets.length === 0) return { refused: 'this trigger has registered no webhook' };
  const request = this.getRequestObject();
  // n8n reads the raw body on demand; a node that checks a signature must see the bytes as sent
  if (!Buffer.isBuffer(request.rawBody) && typeof request.readRawBody === 'function') await request.readRawBody();
  if (!Buffer.isBuffer(request.rawBody)) return { refused: 'the raw request body is unavailable' };
  const check = checkSignature(secrets, request.rawBody, this.getHeaderData());
  return check.ok ? { body: request.rawBody } : { refused: check.reason };
}

export async function receiveEvent(this: IWebhookFunctions): Promise<IWebhookResponseData> {
  const signed = await signedBody.call(this);
  if ('refused' in signed) {
    this.getResponseObject()
      .status(401)
      .json({ error: { message: `Signature refused: ${signed.refused}`, code: 'unauthorized', status_code: 401 } });
    return { noWebhookResponse: true };
  }
  const event = jsonParse<IDataObject>(signed.body.toString('utf8'));
  const options = dataObjectOr(this.getNodeParameter('options', {}));
  const output = options.output === 'body' && isDataObject(event.body) ? event.body : event;
  return { workflowData: [this.helpers.returnJsonArray(output)] };
}
