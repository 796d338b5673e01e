// Declaring a resource: the id pattern, and for stored objects the `id` and `object` fields, follow from
// the id prefix and object name written once in the declaration. The object schema keeps its static
// type, which the store gives the objects it reads (engine/store/stored.ts).
import { Type, type TLiteral, type TObject, type TProperties, type TString } from '@sinclair/typebox';
import { id, objectName, stamps } from './fields';
import { idPatternFor } from './paths';
import type { Resource } from './types';

type Common = Omit<Resource, 'idPattern' | 'schema'> & {
  /** only where ids differ from `<prefix>_<letters and digits>` */
  idPattern?: string;
};

/** The object schema of a resource declared by its fields: its id, the fields, the stamps and `object`. */
export type FieldsObject<P extends TProperties, O extends string> = TObject<
  { id: TString } & P & ReturnType<typeof stamps> & { object: TLiteral<O> }
>;

const objectSchema = <P extends TProperties, O extends string>(idPrefix: string, title: string, fields: P, object: O) =>
  Type.Object({ id: id(idPrefix, title.toLowerCase()), ...fields, ...stamps(), object: objectName(object) });

export function defineResource<S extends TObject, const N extends string>(
  declaration: Common & { name: N; schema: S },
): Resource<S, N>;
export function defineResource<P extends TProperties, const N extends string, const O extends string>(
  declaration: Common & { name: N; object: O; fields: P },
): Resource<FieldsObject<P, O>, N>;
export function defineResource(declaration: Common & ({ schema: TObject } | { fields: TProperties })): Resource {
  const schema =
    'schema' in declaration
      ? declaration.schema
      : objectSchema(declaration.idPrefix, declaration.title, declaration.fields, declaration.object);
  const { idPattern, fields: _fields, ...rest } = { fields: undefined, ...declaration };
  // Which operations publishable keys may call is said once, by the operations' flags.
  const publishable = declaration.operations.some((o) => o.publishable);
  const description = publishable
    ? `${declaration.description} Publishable keys may call it.`
    : declaration.description;
  return { ...rest, description, schema, idPattern: idPattern ?? idPatternFor(declaration.idPrefix) };
}
