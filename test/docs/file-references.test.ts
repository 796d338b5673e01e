// Every file a comment or a doc names exists: a name left behind by a move or a rename sends the next
// reader looking for nothing. Names are read from comments in TypeScript and from Markdown: a path
// relative to the naming file (starting with a dot) must lead to a file; a path from the repository's
// root (`engine/store/commit.ts`) or the tail of one (`store/commit.ts`) must be some file's; a bare file
// name must be some file's name.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';

const ROOT = path.resolve(__dirname, '../..');

/** Names of files in other projects that a comment cites on purpose (n8n's Okta node, Zapier's build). */
const ELSEWHERE = new Set(['UserDescription.ts', 'Description.ts', 'definition.json']);

const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean);
const known = new Set(tracked);
const names = new Set(tracked.map((f) => path.posix.basename(f)));
// generated descriptions quote the catalog, and fixtures are data
const READ = tracked.filter(
  (f) => /\.(ts|md)$/.test(f) && !/^(nodes\/Printpost\/descriptions|test\/fixtures)\//.test(f),
);

const NAME = /(?<![\w./-])((?:\.{1,2}\/)*(?:[\w-][\w.-]*\/)*[\w-][\w.-]*\.(?:ts|md|json))(?![\w.-])/g;
const COMMENT = /^\s*(?:\/\/|\*|\/\*)|\s\/\/\s/;

function exists(from: string, name: string): boolean {
  if (name.startsWith('dist/')) return true; // built, not kept
  if (name.startsWith('.')) return known.has(path.posix.normalize(path.posix.join(path.posix.dirname(from), name)));
  if (!name.includes('/')) return names.has(name) || ELSEWHERE.has(name);
  return known.has(name) || tracked.some((f) => f.endsWith(`/${name}`));
}

/** `file:line: name` for each name that points at no file. */
function missing(): string[] {
  const found: string[] = [];
  for (const file of READ) {
    const markdown = file.endsWith('.md');
    readFileSync(path.join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (!markdown && !COMMENT.test(line)) return;
        for (const [, name] of line.matchAll(NAME)) if (!exists(file, name)) found.push(`${file}:${i + 1}: ${name}`);
      });
  }
  return found;
}

test('the files comments and docs name exist', (t) => {
  t.true(READ.length > 300, `${READ.length} files read`);
  t.deepEqual(missing(), []);
});

test('a name that points at nothing is caught', (t) => {
  // the check itself, on names that cannot exist beside ones that do
  t.false(exists('engine/domain/audiences/rows.ts', '../person-key.ts'));
  t.true(exists('engine/domain/audiences/rows.ts', '../addresses/person-key.ts'));
  t.false(exists('README.md', 'engine/mail/person-key.ts'));
  t.true(exists('README.md', 'store/commit.ts'));
});
