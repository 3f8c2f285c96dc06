/**
 * Template folders (packages/cli/templates/*) copied into an app with
 * `{{key}}` placeholders filled in, in file contents and in file and folder
 * names alike.
 */
import fs from 'node:fs';
import path from 'node:path';

export const TEMPLATES_DIR = path.resolve(__dirname, '../../templates');

/** npm drops `.gitignore` from published packages, so templates hold it without the dot. */
const RENAMED: Record<string, string> = { gitignore: '.gitignore' };

/** Copies `from` into `to`; returns the files written, relative to `to`. */
export function copyTemplate(from: string, to: string, values: Record<string, string>, prefix = ''): string[] {
  fs.mkdirSync(to, { recursive: true });
  const written: string[] = [];
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const name = fill(RENAMED[entry.name] ?? entry.name, values);
    const destination = path.join(to, name);
    const relative = path.posix.join(prefix, name);
    if (entry.isDirectory()) written.push(...copyTemplate(source, destination, values, relative));
    else {
      fs.writeFileSync(destination, fill(fs.readFileSync(source, 'utf8'), values));
      written.push(relative);
    }
  }
  return written;
}

export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
}
