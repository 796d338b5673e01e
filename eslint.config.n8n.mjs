// n8n's community-node lint rules over the built n8n package (dist/n8n-nodes-printpost: package.json,
// the node and credential sources in the layout n8n's tooling expects). Build first:
//   node --import tsx scripts/build-packs.ts && npx eslint -c eslint.config.n8n.mjs
import tseslint from 'typescript-eslint';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

// the built package (dist/n8n-nodes-printpost), or a test build of it (dist/test-packs/*/n8n-nodes-printpost)
const PACK = '**/n8n-nodes-printpost';

export default [
  { ignores: ['**/node_modules/**', `${PACK}/dist/**`, `${PACK}/index.js`] },
  {
    ...n8nCommunityNodesPlugin.configs.recommended,
    files: [`${PACK}/package.json`, `${PACK}/nodes/**/*.ts`, `${PACK}/credentials/**/*.ts`],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  },
];
