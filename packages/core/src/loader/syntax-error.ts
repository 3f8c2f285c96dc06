/**
 * A syntax error in an app's code file (`src/index.ts`, a controller, a
 * config file), told as an editor shows it: `file:line:column`, the message,
 * and the line with a caret under the mistake — instead of the transpiler's
 * stack trace.
 *
 * Sucrase, which transpiles app files on require, is not a validating parser:
 * after a failed attempt at an arrow function it reports where the arrow
 * began (line 5 for a missing `)` on line 10). TypeScript's parser names the
 * first real mistake, so the file is parsed again with it — loaded only here,
 * when a file has already failed, so it costs a boot nothing.
 */
import fs from 'node:fs';
import type * as TypeScript from 'typescript';
import { ConfigurationError } from '@tessera/errors';

interface Place {
  file: string;
  /** 1-based, as editors count. */
  line: number;
  column: number;
  message: string;
}

/** A ConfigurationError pointing at the mistake, or undefined when `error` is no syntax error of a readable file. */
export function syntaxError(error: unknown): ConfigurationError | undefined {
  const reported = sucrasePlace(error) ?? v8Place(error);
  if (!reported) return undefined;
  let source: string;
  try {
    source = fs.readFileSync(reported.file, 'utf8');
  } catch {
    return undefined;
  }
  const place = typeScriptPlace(reported.file, source) ?? reported;
  return new ConfigurationError(`${place.file}:${place.line}:${place.column}: syntax error: ${place.message}\n${codeFrame(source, place.line, place.column)}`);
}

/** Sucrase throws `Error transforming <file>: <message> (<line>:<column>)` with `loc` (column 0-based). */
function sucrasePlace(error: unknown): Place | undefined {
  if (!(error instanceof SyntaxError)) return undefined;
  // String cuts, not a pattern: the message quotes a path and the parser's text (no regex scans either).
  const first = error.message.split('\n')[0]!;
  const prefix = 'Error transforming ';
  const separator = first.indexOf(': ', prefix.length);
  const position = first.lastIndexOf(' (');
  const loc = (error as SyntaxError & { loc?: { line: number; column: number } }).loc;
  if (!first.startsWith(prefix) || separator < 0 || position < separator || !loc) return undefined;
  return { file: first.slice(prefix.length, separator), line: loc.line, column: loc.column + 1, message: first.slice(separator + 2, position) };
}

/** V8's own SyntaxError (a `.js` file, or what sucrase let through): its stack starts with `<file>:<line>` and a caret line. */
function v8Place(error: unknown): Place | undefined {
  if (!(error instanceof SyntaxError) || !error.stack) return undefined;
  const [first, , carets] = error.stack.split('\n');
  const match = /^(\/.+):(\d+)$/.exec(first ?? '');
  if (!match) return undefined;
  const caret = carets?.indexOf('^') ?? -1;
  return { file: match[1]!, line: Number(match[2]), column: caret >= 0 ? caret + 1 : 1, message: error.message };
}

/** TypeScript's first syntactic diagnostic for the file, or undefined when TypeScript sees none (or is not installed). */
function typeScriptPlace(file: string, source: string): Place | undefined {
  let ts: typeof TypeScript;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    ts = require('typescript') as typeof TypeScript;
  } catch {
    return undefined;
  }
  const output = ts.transpileModule(source, { fileName: file, reportDiagnostics: true, compilerOptions: { allowJs: true } });
  const first = output.diagnostics?.find((diagnostic) => diagnostic.file !== undefined && diagnostic.start !== undefined);
  if (!first) return undefined;
  const position = first.file!.getLineAndCharacterOfPosition(first.start!);
  return { file, line: position.line + 1, column: position.character + 1, message: ts.flattenDiagnosticMessageText(first.messageText, ' ') };
}

/** The line before and the line of the mistake, numbered, with a caret under the column (tabs kept so it lines up). */
function codeFrame(source: string, line: number, column: number): string {
  const lines = source.split(/\r?\n/);
  const width = String(line).length;
  const numbered = (at: number, mark: string) => `${mark} ${String(at).padStart(width)} | ${lines[at - 1] ?? ''}`;
  const shown = line > 1 ? [numbered(line - 1, ' '), numbered(line, '>')] : [numbered(line, '>')];
  const indent = (lines[line - 1] ?? '').slice(0, column - 1).replace(/[^\t]/g, ' ');
  return [...shown, `  ${' '.repeat(width)} | ${indent}^`].join('\n');
}
