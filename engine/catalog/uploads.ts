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

/** The records the multipart parser made: a JSON body shaped like one must not name a file on disk. */
const received = new WeakSet<object>();

/** Marks a record as made by the multipart parser for a part it stored; only these pass as uploads. */
export function receivedUpload<T extends UploadRef>(ref: T): T {
  received.add(ref);
  return ref;
}

export const isUploadRef = (value: unknown): value is UploadRef =>
  typeof value === 'object' && value !== null && received.has(value);

TypeRegistry.Set('Upload', (_schema, value) => isUploadRef(value));

/** A file sent as a multipart part under this field's name. */
export const upload = (options: SchemaOptions = {}) =>
  Type.Unsafe<UploadRef>({ ...options, [Kind]: 'Upload', type: 'string', format: 'binary' });
