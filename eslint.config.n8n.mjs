// n8n's community-node lint rules over the built n8n package (dist/n8n-nodes-printpost: package.json,
// the node and credential sources in the layout n8n's tooling expects). Build first:
//   node --import tsx scripts/build-packs.ts && npx eslint -c eslint.config.n8n.mjs
import { parse } from '@typescript-eslint/typescript-estree';
import { analyze } from '@typescript-eslint/scope-manager';
import { visitorKeys } from '@typescript-eslint/visitor-keys';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

// A minimal TypeScript parser for ESLint (what @typescript-eslint/parser does, without type info):
// the community rules are syntactic, and package.json parses as a JSON source file.
const tsParser = {
  meta: { name: 'printpost-ts-estree' },
  parseForESLint(code, options = {}) {
    const ast = parse(code, {
      filePath: options.filePath,
      range: true,
      loc: true,
      tokens: true,
      comment: true,
      jsx: false,
      errorOnUnknownASTType: false,
    });
    const scopeManager = analyze(ast, { sourceType: 'module', lib: ['es2022'] });
    return { ast, scopeManager, visitorKeys };
  },
};

// the built package (dist/n8n-nodes-printpost), or a test build of it (dist/test-packs/*/n8n-nodes-printpost)
const PACK = '**/n8n-nodes-printpost';

export default [
  { ignores: ['**/node_modules/**', `${PACK}/dist/**`, `${PACK}/index.js`] },
  {
    ...n8nCommunityNodesPlugin.configs.recommended,
    files: [`${PACK}/package.json`, `${PACK}/nodes/**/*.ts`, `${PACK}/credentials/**/*.ts`],
    languageOptions: { parser: tsParser, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
  },
];
