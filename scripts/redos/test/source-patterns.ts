/**
 * Every regular expression written in Tessera's own source: the literals
 * (`/…/g`) and the `RegExp(…)` / `new RegExp(…)` calls, found with the
 * TypeScript parser (so a `/` in a string or a comment is never taken for
 * one). Sources: `packages/<name>/src` and `plugins/<name>/src`, `.ts` and
 * hand-written `.js` (the `.js` that tsc emits beside a `.ts` is skipped),
 * never node_modules or dist.
 *
 * A `RegExp` built from a string literal is a pattern like any other; one
 * built from an expression is "dynamic": its source cannot be checked here,
 * and the test names each one with the reason it is safe.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface StaticPattern {
  kind: 'static';
  /** `packages/core/src/x.ts:12` */
  where: string;
  source: string;
  flags: string;
}

export interface DynamicPattern {
  kind: 'dynamic';
  where: string;
  /** The expression the pattern is built from, as written. */
  expression: string;
}

export type SourcePattern = StaticPattern | DynamicPattern;

export const ROOT = path.resolve(__dirname, '..', '..', '..');

export function sourceFiles(root = ROOT): string[] {
  const files: string[] = [];
  for (const group of ['packages', 'plugins']) {
    const groupDir = path.join(root, group);
    for (const name of fs.readdirSync(groupDir)) {
      const src = path.join(groupDir, name, 'src');
      if (fs.existsSync(src)) walk(src, files);
    }
  }
  return files.sort();
}

function walk(dir: string, files: string[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') walk(full, files);
    } else if (/\.(ts|js|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !emittedBesideSource(full)) {
      files.push(full);
    }
  }
}

/** `x.js` next to `x.ts` is tsc's output, not source. */
function emittedBesideSource(file: string): boolean {
  return file.endsWith('.js') && fs.existsSync(`${file.slice(0, -3)}.ts`);
}

export function patternsIn(file: string, root = ROOT): SourcePattern[] {
  const text = fs.readFileSync(file, 'utf8');
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: SourcePattern[] = [];
  const where = (node: ts.Node) => `${path.relative(root, file)}:${sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText();
      const end = literal.lastIndexOf('/');
      found.push({ kind: 'static', where: where(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') {
      const [pattern, flags] = node.arguments ?? [];
      const flagText = flags === undefined ? '' : ts.isStringLiteralLike(flags) ? flags.text : null;
      if (pattern && ts.isStringLiteralLike(pattern) && flagText !== null) {
        found.push({ kind: 'static', where: where(node), source: pattern.text, flags: flagText });
      } else {
        found.push({ kind: 'dynamic', where: where(node), expression: node.getText() });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}
