// The catalog the packs are generated from. In the source tree (tests, tsx) it is read from the
// engine's catalog; scripts/build-packs.ts replaces this module with the frozen JSON, so the built
// packs carry data only and never the engine's code.
import { catalog } from '../../engine/catalog';
import { toPackCatalog, type PackResource } from './pack-catalog';

export const packCatalog: PackResource[] = toPackCatalog(catalog);
