// n8n's community-node lint rules (@n8n/eslint-plugin-community-nodes, recommended) over the built package.
import test from 'ava';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { builtPacks } from './build-once';

test('the built n8n package passes the community-node lint rules with no errors or warnings', async (t) => {
  const { n8nDir } = await builtPacks();
  const eslint = new ESLint({
    cwd: resolve(__dirname, '../..'),
    overrideConfigFile: resolve(__dirname, '../../eslint.config.n8n.mjs'),
  });
  const results = await eslint.lintFiles([n8nDir]);
  const files = results.map((r) => r.filePath.slice(n8nDir.length + 1)).sort();
  t.true(files.includes('package.json'));
  t.true(files.includes(join('nodes', 'Printpost', 'Printpost.node.ts')));
  t.true(files.includes(join('nodes', 'PrintpostTrigger', 'PrintpostTrigger.node.ts')));
  t.true(files.includes(join('credentials', 'PrintpostApi.credentials.ts')));
  const problems = results.flatMap((r) =>
    r.messages.map((m) => `${r.filePath.slice(n8nDir.length + 1)}:${m.line} ${m.ruleId}: ${m.message}`),
  );
  t.deepEqual(problems, []);
});

test('the rules are live: a node without usableAsTool and a wrong credential name fail', async (t) => {
  const { n8nDir } = await builtPacks();
  const eslint = new ESLint({
    cwd: resolve(__dirname, '../..'),
    overrideConfigFile: resolve(__dirname, '../../eslint.config.n8n.mjs'),
  });
  const fs = await import('node:fs');
  const file = join(n8nDir, 'nodes/Printpost/Printpost.node.ts');
  const code = fs
    .readFileSync(file, 'utf8')
    .replace('usableAsTool: true,\n', '')
    .replace("name: 'printpostApi'", "name: 'someoneElsesApi'");
  const [result] = await eslint.lintText(code, { filePath: file });
  const rules = new Set(result.messages.map((m) => m.ruleId));
  t.true(rules.has('@n8n/community-nodes/node-usable-as-tool'));
  t.true(rules.has('@n8n/community-nodes/valid-credential-references'));
});

test("the trigger's rules are live: a trigger usable as a tool, or without its delete method, fails", async (t) => {
  const { n8nDir } = await builtPacks();
  const eslint = new ESLint({
    cwd: resolve(__dirname, '../..'),
    overrideConfigFile: resolve(__dirname, '../../eslint.config.n8n.mjs'),
  });
  const fs = await import('node:fs');
  const file = join(n8nDir, 'nodes/PrintpostTrigger/PrintpostTrigger.node.ts');
  const source = fs.readFileSync(file, 'utf8');
  t.true(source.includes('async delete('));
  const code = source
    .replace("group: ['trigger'],", "group: ['trigger'],\n    usableAsTool: true,")
    .replace(/async delete\(/, 'async remove(');
  const [result] = await eslint.lintText(code, { filePath: file });
  const rules = new Set(result.messages.map((m) => m.ruleId));
  t.true(rules.has('@n8n/community-nodes/node-usable-as-tool'));
  t.true(rules.has('@n8n/community-nodes/webhook-lifecycle-complete'));
});
