/**
 * Every named type an exported signature uses can be imported from the package entry (review s24 r5: 93 of
 * them — LatencyModel, TraceFormat, DatingRecorder, NamedPlace, RunFigures, BadInput, … — could be seen in a
 * hover but not imported, short of a deep path the package does not export). Walked with the TypeScript
 * compiler over the built dist/index.d.ts, as a consumer's compiler reads it: from each export, every type
 * its declarations name (and theirs, in turn) that is declared in the package must itself be an export.
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const DIST = resolve('dist');
const ENTRY = join(DIST, 'index.d.ts');

/** `name (file)` of each named type the exports use that the entry does not export. */
function unexportedTypes(): string[] {
  // lib ES2022 alone: only the types the package declares are walked, and TypeScript's DOM lib (the default
  // lib's largest file: a third of this program's CPU) declares none of them.
  const program = ts.createProgram([ENTRY], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, skipLibCheck: true, types: [], lib: ['lib.es2022.d.ts'] });
  const checker = program.getTypeChecker();
  const unaliased = (symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const inPackage = (node: ts.Node) => node.getSourceFile().fileName.startsWith(DIST);
  const exported = new Set<ts.Symbol>();
  const roots: ts.Symbol[] = [];
  for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!)) {
    const target = unaliased(symbol);
    exported.add(target);
    roots.push(target);
    // A namespace export (`kernel`): its members are reached through it.
    if (target.flags & ts.SymbolFlags.ValueModule) for (const member of checker.getExportsOfModule(target)) exported.add(unaliased(member));
  }
  const missing = new Set<string>();
  const walked = new Set<ts.Symbol>();
  const named = (node: ts.Node): ts.Node | undefined =>
    ts.isTypeReferenceNode(node) ? node.typeName : ts.isTypeQueryNode(node) ? node.exprName : ts.isExpressionWithTypeArguments(node) ? node.expression : undefined;
  const visit = (node: ts.Node): void => {
    const name = named(node);
    const found = name === undefined ? undefined : checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : name);
    const symbol = found === undefined ? undefined : unaliased(found);
    const declaration = symbol?.declarations?.[0];
    if (symbol !== undefined && declaration !== undefined && inPackage(declaration) && !exported.has(symbol) && !(symbol.flags & ts.SymbolFlags.TypeParameter)) {
      missing.add(`${symbol.name} (${relative(DIST, declaration.getSourceFile().fileName)})`);
      walk(symbol);
    }
    ts.forEachChild(node, visit);
  };
  const walk = (symbol: ts.Symbol): void => {
    if (walked.has(symbol)) return;
    walked.add(symbol);
    for (const declaration of symbol.declarations ?? []) if (inPackage(declaration)) visit(declaration);
  };
  roots.forEach(walk);
  return [...missing].sort();
}

describe('the types of the exported signatures', () => {
  it('are each exported from the package entry', () => {
    expect(existsSync(ENTRY), 'npm run build first (npm test does)').toBe(true);
    expect(unexportedTypes()).toEqual([]);
  }, 120_000);
});
