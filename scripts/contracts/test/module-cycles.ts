/**
 * The module graph of packages/ and plugins/ (type imports included, as
 * `madge --circular` sees it) and its cycles. A cycle makes load order decide
 * what a module sees at import time, and hides which layer depends on which.
 */
import fs from 'node:fs';
import path from 'node:path';
import { IMPORT } from './plugin-imports';

export type ModuleGraph = Map<string, string[]>;

/** Source files of each workspace under `roots`, keyed by package name. */
export function workspaceSources(roots: string[]): { files: string[]; entries: Map<string, string> } {
  const files: string[] = [];
  const entries = new Map<string, string>();
  for (const root of roots) {
    for (const folder of fs.readdirSync(root)) {
      const dir = path.join(root, folder);
      const manifest = path.join(dir, 'package.json');
      if (!fs.existsSync(manifest) || !fs.existsSync(path.join(dir, 'src'))) continue;
      const { name } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name: string };
      entries.set(name, path.join(dir, 'src', 'index.ts'));
      for (const entry of fs.readdirSync(path.join(dir, 'src'), { withFileTypes: true, recursive: true })) {
        if (entry.isFile() && /\.ts$/.test(entry.name)) files.push(path.join(entry.parentPath, entry.name));
      }
    }
  }
  return { files, entries };
}

/** Each file's imports that land on another file of the graph (relative paths, or a workspace package's entry). */
export function moduleGraph(files: string[], entries: Map<string, string>, read: (file: string) => string): ModuleGraph {
  const known = new Set(files);
  const resolve = (from: string, specifier: string): string | undefined => {
    if (!specifier.startsWith('.')) return entries.get(specifier);
    const base = path.resolve(path.dirname(from), specifier);
    return [`${base}.ts`, path.join(base, 'index.ts'), base].find((candidate) => known.has(candidate));
  };
  const graph: ModuleGraph = new Map();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of withoutComments(read(file)).matchAll(IMPORT)) {
      const target = resolve(file, match[1]);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The graph's cycles: strongly connected components of more than one module (Tarjan, iterative). */
export function cycles(graph: ModuleGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter); low.set(start, counter); counter += 1; stack.push(start); onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter); low.set(target, counter); counter += 1; stack.push(target); onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1) found.push(component.reverse());
    }
  }
  return found;
}

/** Source text without block comments and whole-line `//` comments, whose examples (`import … from '@tessera/…'`) are not imports. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^[ \t]*\/\/.*$/gm, '');
}
