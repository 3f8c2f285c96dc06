/**
 * The documentation whose examples the README test runs: README.md, then the
 * `docs/` pages in the order the README's Documentation table lists them
 * (later pages use what earlier ones made: `$TOKEN`, entries, app files).
 * The table is the one list: a page missing from it is caught by the test,
 * not silently left unrun. `docs/architecture.md` is for contributors and
 * holds no examples.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface DocumentationPage {
  /** Repository-relative path, as error messages name it. */
  file: string;
  text: string;
}

const NOT_EXAMPLES = new Set(['docs/architecture.md']);

/** `docs/<page>.md` links of the README's Documentation section, in order, each once. */
export function listedPages(readme: string): string[] {
  const section = readme.split(/^## Documentation$/m)[1]?.split(/^## /m)[0] ?? '';
  const pages: string[] = [];
  for (const match of section.matchAll(/\]\((docs\/[\w-]+\.md)\)/g)) {
    const page = match[1]!;
    if (!NOT_EXAMPLES.has(page) && !pages.includes(page)) pages.push(page);
  }
  return pages;
}

export function documentationPages(root: string): DocumentationPage[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  return [{ file: 'README.md', text: readme }, ...listedPages(readme).map((file) => ({ file, text: fs.readFileSync(path.join(root, file), 'utf8') }))];
}

/** `docs/*.md` files the README does not list (each should be listed, or be architecture.md). */
export function unlistedPages(root: string): string[] {
  const listed = new Set(listedPages(fs.readFileSync(path.join(root, 'README.md'), 'utf8')));
  return fs
    .readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`)
    .filter((file) => !listed.has(file) && !NOT_EXAMPLES.has(file));
}
