// Declaring a resource: the id pattern, and for stored objects the `id` and `object` fields, follow from
// the id prefix and object name written once in the declaration.
import { Type, type TObject, type TProperties } from '@sinclair/typebox';
import { id, objectName, stamps } from './fields';
import { idPatternFor } from './paths';
import type { Resource } from './types';

type Declaration = Omit<Resource, 'idPattern' | 'schema'> & {
  /** only where ids differ from `<prefix>_<letters and digits>` */
  idPattern?: string;
} & ({ schema: TObject } | { fields: TProperties });

export function defineResource(declaration: Declaration): Resource {
  const { idPattern, ...rest } = declaration;
  const schema =
    'schema' in declaration
      ? declaration.schema
      : Type.Object({
          id: id(declaration.idPrefix, declaration.title.toLowerCase()),
          ...declaration.fields,
          ...stamps(),
          object: objectName(declaration.object),
        });
  const { fields: _fields, ...withoutFields } = rest as typeof rest & { fields?: TProperties };
  // Which operations publishable keys may call is said once, by the operations' flags.
  const publishable = declaration.operations.some((o) => o.publishable);
  const description = publishable
    ? `${declaration.description} Publishable keys may call it.`
    : declaration.description;
  return { ...withoutFields, description, schema, idPattern: idPattern ?? idPatternFor(declaration.idPrefix) };
}
