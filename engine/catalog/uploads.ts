// A body field that may carry an uploaded file: in JSON Schema a binary string (multipart), in the engine
// the uploaded file's record, joined into the body before validation so required file fields are present.
import { Kind, Type, TypeRegistry, type SchemaOptions } from '@sinclair/typebox';

export interface UploadRef {
  upload: true;
  field: string;
  filename: string;
  mimeType: string;
  /** where the bytes are while the request lasts */
  path: string;
  size: number;
}

const isUploadRef = (value: unknown): value is UploadRef =>
  typeof value === 'object' &&
  value !== null &&
  (value as UploadRef).upload === true &&
  typeof (value as UploadRef).path === 'string';

TypeRegistry.Set('Upload', (_schema, value) => isUploadRef(value));

/** A file sent as a multipart part under this field's name. */
export const upload = (options: SchemaOptions = {}) =>
  Type.Unsafe<UploadRef>({ ...options, [Kind]: 'Upload', type: 'string', format: 'binary' });
