// Artwork files from n8n binary properties. An operation's `files` (the catalog's upload fields) each
// get a parameter naming an input binary property; when one is set, the request goes out as
// multipart/form-data with the file under the field's name and every other field in bracket form.
import type { IExecuteSingleFunctions, IHttpRequestOptions } from 'n8n-workflow';
import type { PackOperation } from '../common/pack-catalog';
import { formPairs, multipartChunks, type FilePart } from '../common/multipart';
import { dataObjectOr } from './data-object';

/** Where an operation's optional body fields are collected (the node's "Additional Fields"). */
export const ADDITIONAL_FIELDS = 'additionalFields';

/** The text-or-file selector of a required file field: `frontSource`. */
export const fileSourceName = (field: string) => `${field}Source`;

/** The parameter naming the input binary property of a file field: `frontBinaryProperty`. */
export const binaryPropertyName = (field: string) => `${field}BinaryProperty`;

/** The selector's value that means "upload a binary property". */
export const BINARY_SOURCE = 'binary';

/** Where the binary property parameter of a file field sits: on its own when the field is required, else in the collection. */
function binaryParameter(op: PackOperation, field: string): { source?: string; property: string } {
  if (op.body?.required?.includes(field)) return { source: fileSourceName(field), property: binaryPropertyName(field) };
  return { property: `${ADDITIONAL_FIELDS}.${binaryPropertyName(field)}` };
}

/** The files the item's binary properties hold for this operation's upload fields. */
async function binaryFiles(this: IExecuteSingleFunctions, op: PackOperation): Promise<FilePart<Buffer>[]> {
  const files: FilePart<Buffer>[] = [];
  for (const field of op.files ?? []) {
    const { source, property } = binaryParameter(op, field);
    if (source && this.getNodeParameter(source, 'text') !== BINARY_SOURCE) continue;
    const name = String(this.getNodeParameter(property, '') ?? '').trim();
    if (!name) continue;
    const binary = this.helpers.assertBinaryData(name);
    files.push({
      field,
      filename: binary.fileName ?? field,
      contentType: binary.mimeType || 'application/octet-stream',
      data: await this.helpers.getBinaryDataBuffer(name),
    });
  }
  return files;
}

/** Sends the request as multipart when the item gives files for the operation; else leaves it as it is. */
export async function attachBinaryFiles(
  this: IExecuteSingleFunctions,
  op: PackOperation,
  requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
  if (!op.files?.length) return requestOptions;
  const files = await binaryFiles.call(this, op);
  if (!files.length) return requestOptions;
  const body = { ...dataObjectOr(requestOptions.body) };
  // a field sent as a file is not also sent as text
  for (const file of files) delete body[file.field];
  const { contentType, chunks } = multipartChunks(formPairs(body), files);
  const headers = Object.fromEntries(
    Object.entries(requestOptions.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'content-type'),
  );
  return { ...requestOptions, body: Buffer.concat(chunks), headers: { ...headers, 'Content-Type': contentType } };
}
