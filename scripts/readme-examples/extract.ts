/**
 * The runnable examples of README.md, in order: shell commands from ```bash
 * blocks, and app files from ```ts blocks marked `<!-- app-files -->` (each
 * file starts with a `// src/...` or `// config/...` path comment). A block
 * preceded by `<!-- not-run: <why> -->` is skipped; the marker stays visible
 * in the README source, so skipping is a decision a reviewer sees.
 *
 * A command expects HTTP 200 unless its line says otherwise with a trailing
 * `# → <status>` comment (readers see the same promise); a GET must show
 * content unless the comment says `empty` (and why).
 */
export interface ShellCommand {
  kind: 'command';
  /** 1-based line of the README where the command starts. */
  line: number;
  text: string;
  expectedStatus: number;
  /** The README says this request answers an empty list. */
  expectsEmpty: boolean;
}

export interface AppFiles {
  kind: 'files';
  line: number;
  files: Record<string, string>;
}

/** A ```graphql block: sent to /graphql (with the README's $TOKEN once it exists); it must answer data and no errors. */
export interface GraphqlQuery {
  kind: 'graphql';
  line: number;
  query: string;
}

export type ReadmeStep = ShellCommand | AppFiles | GraphqlQuery;

/** Every fenced block with a language, and what the README test does with it. */
export interface BlockCount {
  run: number;
  /** `<!-- not-run: reason -->` blocks, with their reasons. */
  notRun: Array<{ line: number; language: string; reason: string }>;
  /** Blocks that are neither run nor marked: the test fails on them. */
  unaccounted: Array<{ line: number; language: string }>;
}

const FENCE = /^```(\w*)\s*$/;
const NOT_RUN = /^<!--\s*not-run:\s*\S.*-->\s*$/;
const APP_FILES = /^<!--\s*app-files\s*-->\s*$/;
const FILE_HEADER = /^\/\/ ((?:src|config)\/[\w./-]+)/;
const EXPECTED_STATUS = /#.*→\s*(\d{3})\b/;
const EXPECTED_EMPTY = /#.*→\s*200, empty\b/;

export function extractSteps(readme: string): ReadmeStep[] {
  const lines = readme.split('\n');
  const steps: ReadmeStep[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = FENCE.exec(lines[index]!);
    if (!fence || fence[1] === '') continue;
    const language = fence[1]!;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    const body = lines.slice(start, end);
    const marker = previousNonEmpty(lines, index);
    index = end;
    if (NOT_RUN.test(marker)) continue;
    if (language === 'bash' || language === 'sh') steps.push(...commands(body, start + 1));
    else if (language === 'graphql') steps.push({ kind: 'graphql', line: start + 1, query: body.join('\n') });
    else if (APP_FILES.test(marker)) steps.push({ kind: 'files', line: start + 1, files: files(body, start + 1) });
  }
  return steps;
}

/** Which blocks run, which are skipped and why, and which are neither (every block must be one or the other). */
export function countBlocks(readme: string): BlockCount {
  const lines = readme.split('\n');
  const count: BlockCount = { run: 0, notRun: [], unaccounted: [] };
  for (let index = 0; index < lines.length; index++) {
    const fence = FENCE.exec(lines[index]!);
    if (!fence || fence[1] === '') continue;
    const language = fence[1]!;
    const marker = previousNonEmpty(lines, index);
    const line = index + 1;
    index++;
    while (index < lines.length && !/^```\s*$/.test(lines[index]!)) index++;
    if (NOT_RUN.test(marker)) count.notRun.push({ line, language, reason: marker.replace(/^<!--\s*not-run:\s*|\s*-->$/g, '') });
    else if (language === 'bash' || language === 'sh' || language === 'graphql' || APP_FILES.test(marker)) count.run++;
    else count.unaccounted.push({ line, language });
  }
  return count;
}

function previousNonEmpty(lines: string[], index: number): string {
  for (let i = index - 1; i >= 0; i--) if (lines[i]!.trim() !== '') return lines[i]!.trim();
  return '';
}

/** One command per line, continuation lines (ending in `\`) joined; comment-only lines dropped. */
function commands(body: string[], firstLine: number): ShellCommand[] {
  const found: ShellCommand[] = [];
  let pending: { line: number; parts: string[] } | undefined;
  body.forEach((text, offset) => {
    if (!pending && (text.trim() === '' || text.trim().startsWith('#'))) return;
    pending ??= { line: firstLine + offset, parts: [] };
    pending.parts.push(text);
    if (text.endsWith('\\')) return;
    const joined = pending.parts.join('\n');
    found.push({
      kind: 'command',
      line: pending.line,
      text: joined,
      expectedStatus: Number(EXPECTED_STATUS.exec(joined)?.[1] ?? 200),
      expectsEmpty: EXPECTED_EMPTY.test(joined),
    });
    pending = undefined;
  });
  if (pending) throw new Error(`README line ${pending.line}: a command ends with a continuation backslash`);
  return found;
}

function files(body: string[], firstLine: number): Record<string, string> {
  const result: Record<string, string> = {};
  let current: string | undefined;
  body.forEach((text, offset) => {
    const header = FILE_HEADER.exec(text);
    if (header) {
      current = header[1]!;
      result[current] = '';
      return;
    }
    if (current === undefined) {
      if (text.trim() === '') return;
      throw new Error(`README line ${firstLine + offset}: an app-files block must start with a "// src/..." path comment`);
    }
    result[current] += `${text}\n`;
  });
  return result;
}
