// No cast on a stored object read: what the store returns is typed from the catalog (engine/store/
// stored.ts), so a type assertion on it in the engine is either needless or hides a wrong type. Read
// with the compiler's type checker: every `x as T` / `<T>x` in engine/ (the store's own row parsing
// aside) whose operand comes from engine/store — a call of a store function or method, a value of an
// API object's shape (`id`, `date_created`, `date_modified`), a property of one, or a variable set
// from one of those — is listed and fails the test.
import path from 'node:path';
import test from 'ava';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const STORE = path.join(ROOT, 'engine', 'store') + path.sep;
const ENGINE = path.join(ROOT, 'engine') + path.sep;

function engineProgram(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error('tsconfig.json did not parse');
  const roots = config.fileNames.filter((f) => path.resolve(f).startsWith(ENGINE));
  return ts.createProgram(roots, config.options);
}

const inStore = (node: ts.Node): boolean => path.resolve(node.getSourceFile().fileName).startsWith(STORE);

/** The expression a value is read from: without parentheses, `await`, `!`, and the left of `??`/`||`. */
function unwrap(expression: ts.Expression): ts.Expression {
  let e = expression;
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isAwaitExpression(e) || ts.isNonNullExpression(e)) e = e.expression;
    else if (
      ts.isBinaryExpression(e) &&
      (e.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
        e.operatorToken.kind === ts.SyntaxKind.BarBarToken)
    )
      e = e.left;
    else return e;
  }
}

function storedRead(checker: ts.TypeChecker): (expression: ts.Expression) => boolean {
  const declaredInStore = (type: ts.Type): boolean =>
    [type.aliasSymbol, type.getSymbol()].some((s) => s?.declarations?.some(inStore) ?? false);
  const objectShaped = (type: ts.Type): boolean =>
    ['id', 'date_created', 'date_modified'].every((name) => checker.getPropertyOfType(type, name) !== undefined);
  const storedType = (type: ts.Type): boolean =>
    type.isUnion() ? type.types.some(storedType) : declaredInStore(type) || objectShaped(type);
  const fromStore = (expression: ts.Expression, depth: number): boolean => {
    const e = unwrap(expression);
    if (ts.isCallExpression(e)) {
      const declaration = checker.getResolvedSignature(e)?.declaration;
      if (declaration && inStore(declaration)) return true;
    }
    if (storedType(checker.getTypeAtLocation(e))) return true;
    if (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) return fromStore(e.expression, depth);
    if (ts.isIdentifier(e) && depth < 3) {
      const declaration = checker.getSymbolAtLocation(e)?.valueDeclaration;
      if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer)
        return fromStore(declaration.initializer, depth + 1);
      if (declaration && ts.isBindingElement(declaration)) {
        const variable = ts.walkUpBindingElementsAndPatterns(declaration);
        if (ts.isVariableDeclaration(variable) && variable.initializer)
          return fromStore(variable.initializer, depth + 1);
      }
    }
    return false;
  };
  return (expression) => fromStore(expression, 0);
}

/** `file:line: text` of each assertion on a stored read in the engine outside the store. */
export function castsOnStoredReads(): string[] {
  const program = engineProgram();
  const checker = program.getTypeChecker();
  const isStoredRead = storedRead(checker);
  const found: string[] = [];
  for (const source of program.getSourceFiles()) {
    const file = path.resolve(source.fileName);
    if (!file.startsWith(ENGINE) || file.startsWith(STORE) || source.isDeclarationFile) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
        const isConst = ts.isTypeReferenceNode(node.type) && node.type.getText(source) === 'const';
        if (!isConst && isStoredRead(node.expression)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
          const text = node.getText(source).replace(/\s+/g, ' ').slice(0, 90);
          found.push(`${path.relative(ROOT, file)}:${line + 1}: ${text}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

test('no type assertion in the engine stands on what the store returns', (t) => {
  const found = castsOnStoredReads();
  t.deepEqual(found, [], `casts on stored reads:\n${found.join('\n')}`);
});
