// Small predicates on parsed input shared by coercion and validation.
export { isPlainObject } from '../../base/records';
