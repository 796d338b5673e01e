// What a row of an upload's file means: its recipient (an inline `to` from the mapped address columns),
// merge variables and metadata, and whether it can make a piece at all. The same checks run when the
// file arrives (the upload's counts), in the report and exports, and in each run, so they all agree.
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { addressInput } from '../../catalog/address-fields';
import { metadata as metadataSchema } from '../../catalog/fields';
import { fieldPath, rulesOf } from '../../catalog/rules';
import { OPTIONAL_ADDRESS_FIELDS, REQUIRED_ADDRESS_FIELDS } from '../../catalog/audience-uploads';
import { ApiError } from '../../base/errors';
import type { StoredObjects } from '../../store/objects';
import type { CsvRow } from './csv';
import { personKey } from '../addresses/person-key';
import { textFaultIn } from '../validation/text';

/** The columns an upload reads, as stored on it. */
export interface Mapping {
  /** address field -> column */
  address: Record<string, string>;
  /** merge variable -> column */
  merge: Record<string, string>;
  /** columns whose values become metadata, keyed by the column */
  metadata: string[];
}

export function mappingOf(upload: StoredObjects['uploads']): Mapping {
  const address: Record<string, string> = {};
  const fields = [...REQUIRED_ADDRESS_FIELDS, ...OPTIONAL_ADDRESS_FIELDS] as const;
  const given: Record<string, unknown> = {
    ...upload.requiredAddressColumnMapping,
    ...upload.optionalAddressColumnMapping,
  };
  for (const field of fields) {
    const column = given[field];
    if (typeof column === 'string') address[field] = column;
  }
  return {
    address,
    merge: upload.mergeVariableColumnMapping ?? {},
    // uploads stored before metadata columns were kept have none
    metadata: upload.metadata_columns ?? [],
  };
}

/** Whether the mapping names enough to make an address of every row: a name or company, a line, a city. */
export const mapsAnAddress = (m: Mapping): boolean =>
  (m.address.name !== undefined || m.address.company !== undefined) &&
  m.address.address_line1 !== undefined &&
  m.address.address_city !== undefined;

/** Draft until the file and an address mapping are in; then a run can send to its rows. */
export const stateOf = (upload: StoredObjects['uploads']) =>
  upload.file_key && mapsAnAddress(mappingOf(upload)) ? 'Scheduled' : 'Draft';

/** Refuses (422) a mapping that names a column the file's header does not have. */
export function assertMappingFits(m: Mapping, header: readonly string[]): void {
  const known = new Set(header);
  const named = [
    ...Object.entries(m.address).map(([field, column]) => [column, field] as const),
    ...Object.entries(m.merge).map(([name, column]) => [column, `merge variable ${name}`] as const),
    ...m.metadata.map((column) => [column, 'metadata'] as const),
  ];
  const missing = named.find(([column]) => !known.has(column));
  if (missing)
    throw new ApiError(
      'invalid',
      `the file has no column "${missing[0]}" (mapped to ${missing[1]}); its columns are ${header.map((c) => `"${c}"`).join(', ')}`,
      422,
    );
}

/** What a row makes: the piece's parts, and the row as the file has it. */
export interface RowParts {
  to: Record<string, string>;
  merge_variables: Record<string, string>;
  metadata: Record<string, string>;
}

const ADDRESS = addressInput();
const ADDRESS_CHECK = TypeCompiler.Compile(ADDRESS);
const METADATA_CHECK = TypeCompiler.Compile(metadataSchema());

function firstProblem(check: typeof ADDRESS_CHECK | typeof METADATA_CHECK, value: unknown, prefix: string) {
  const error = check.Errors(value).First();
  if (!error) return undefined;
  const field = `${prefix}${error.path.replace(/^\//, '').replace(/\//g, '.')}`;
  const schema = error.schema as { maxLength?: number; errorMessage?: string };
  if (error.type === ValueErrorType.StringMaxLength) return `${field} must be at most ${schema.maxLength} characters`;
  if (error.type === ValueErrorType.ObjectRequiredProperty) return `${field} is required`;
  return `${field} ${schema.errorMessage ?? error.message.toLowerCase()}`;
}

/** Reads rows against one header and mapping, remembering the recipients seen to find duplicates. */
export class RowReader {
  private readonly index: Map<string, number>;
  /** a recipient's person key -> the row it was first seen on */
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly mapping: Mapping,
    readonly header: readonly string[],
  ) {
    this.index = new Map(header.map((name, i) => [name, i]));
  }

  private value(row: CsvRow, column: string): string {
    return (row.values[this.index.get(column) ?? -1] ?? '').trim();
  }

  parts(row: CsvRow): RowParts {
    const to: Record<string, string> = {};
    for (const [field, column] of Object.entries(this.mapping.address)) {
      // a spreadsheet cell may hold line breaks and tabs: an address line prints on one line (other
      // control characters stay, and the address rules refuse the row)
      const value = this.value(row, column).replace(/[\t\r\n]+/g, ' ');
      if (value !== '') to[field] = value;
    }
    const merge = Object.fromEntries(Object.entries(this.mapping.merge).map(([k, c]) => [k, this.value(row, c)]));
    const metadata = Object.fromEntries(
      this.mapping.metadata.map((c) => [c, this.value(row, c)] as const).filter(([, v]) => v !== ''),
    );
    return { to, merge_variables: merge, metadata };
  }

  /**
   * Why the row can make no piece (a row with the wrong number of fields, an address the address
   * rules refuse, metadata past its limits, a recipient an earlier row has), or undefined. Call once per
   * row, in file order: a row is a duplicate of the first one with the same recipient.
   */
  problem(row: CsvRow, parts = this.parts(row)): string | undefined {
    return this.judge(row, parts).problem;
  }

  /**
   * problem(), whether the row is a duplicate (the same person, ../addresses/person-key.ts, as an earlier row),
   * and the person's key when the row can make a piece.
   */
  judge(row: CsvRow, parts = this.parts(row)): { problem?: string; duplicate?: boolean; personKey?: string } {
    if (row.values.length !== this.header.length)
      return { problem: `the row has ${row.values.length} fields where the header has ${this.header.length}` };
    const to = { address_country: 'US', ...parts.to };
    // the text rules every API body meets (no bidi controls in what is printed), so the row is reported
    const wrong =
      textFaultIn(to, ADDRESS, 'to') ??
      textFaultIn(parts.merge_variables, undefined, 'merge_variables') ??
      textFaultIn(parts.metadata, undefined, 'metadata') ??
      firstProblem(ADDRESS_CHECK, to, 'to.') ??
      firstProblem(METADATA_CHECK, parts.metadata, 'metadata.');
    if (wrong) return { problem: wrong };
    const at = fieldPath('to');
    for (const rule of rulesOf(ADDRESS)) {
      const violation = rule(to, at);
      if (violation) return { problem: violation.message };
    }
    const key = personKey(to);
    const first = this.seen.get(key);
    if (first !== undefined)
      return { problem: `duplicate of row ${first}: the same person and address`, duplicate: true };
    this.seen.set(key, row.rowNumber);
    return { personKey: key };
  }
}
