// Every row carries its account and mode; every query is scoped by both.
import type { Mode } from '../catalog/types';

export interface Scope {
  accountId: string;
  mode: Mode;
}
