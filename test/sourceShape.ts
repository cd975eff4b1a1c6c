/** Shape checks of source files for the tests that keep code small: how long each function is. */
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** Every function, method and arrow function of `file` longer than `maxLines`: "file name (lines)". */
export function longFunctions(file: string, maxLines: number): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
      const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      const name = (node as ts.FunctionDeclaration).name?.getText(source) ?? '<anonymous>';
      if (lines > maxLines) found.push(`${file} ${name} (${lines})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
