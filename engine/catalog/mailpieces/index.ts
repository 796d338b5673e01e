// The five mailpiece kinds, each declared on the shared part in ./define.ts.
export { postcards } from './postcards';
export { selfMailers } from './self-mailers';
export { letters } from './letters';
export { checks } from './checks';
export { snapPacks } from './snap-packs';
