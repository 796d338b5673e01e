// Declaring an operation keeps its exact types: the path as a literal (so its parameters' names are
// known) and its body and query schemas as written (so whatever serves it gets their static types).
import type { TObject } from '@sinclair/typebox';
import type { Operation } from './types';

export const operation = <
  const P extends string,
  B extends TObject | undefined = undefined,
  Q extends TObject | undefined = undefined,
>(
  declared: Operation<P, B, Q>,
): Operation<P, B, Q> & { body: B; query: Q } =>
  // a schema left out is undefined, which is just what B (or Q) is inferred as then
  ({ ...declared, body: declared.body as B, query: declared.query as Q });
