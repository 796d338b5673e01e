// The runtime the description files' routing hooks call (preSend, postReceive), made once for the
// catalog the package carries.
import { packCatalog } from '../common/catalog-data';
import { nodeRuntime } from './runtime';

export const runtime = nodeRuntime(packCatalog);
