/**
 * The checkout's runtime packages as `npm pack` tarballs, packed once per content.
 *
 * Packing the thirteen workspaces was most of what `tessera new` cost from a
 * checkout (about 3 s of CPU, paid by every app made), while their content
 * changes only when they are built or edited. So each workspace's tarball is
 * kept in the checkout's `node_modules/.cache/tessera-packs`, under a key made
 * from the paths, sizes and modification times of its files (everything but
 * `node_modules`: a superset of what `npm pack` includes, so a change anywhere
 * packs it again), and only workspaces whose key changed are packed. A slot is
 * written under a temporary name and renamed into place, so two processes
 * making apps at once never read half a tarball.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Workspace {
  name: string;
  /** Relative to the checkout's root: `packages/core`. */
  dir: string;
}

export interface PackedWorkspace {
  name: string;
  filename: string;
}

/** Copies each workspace's tarball into `destination` (packing those not cached for their content); returns the file names. */
export function packWorkspaces(root: string, workspaces: Workspace[], destination: string): PackedWorkspace[] {
  const cacheDir = path.join(root, 'node_modules', '.cache', 'tessera-packs');
  fs.mkdirSync(cacheDir, { recursive: true });
  const slots = workspaces.map((workspace) => ({ ...workspace, slot: path.join(cacheDir, `${slotPrefix(workspace.name)}${contentKey(path.join(root, workspace.dir))}`) }));
  const missing = slots.filter((workspace) => tarballIn(workspace.slot) === undefined);
  if (missing.length > 0) packInto(root, cacheDir, missing);
  return slots.map(({ name, slot }) => {
    const filename = tarballIn(slot);
    if (filename === undefined) throw new Error(`npm pack made no tarball for ${name}`);
    fs.copyFileSync(path.join(slot, filename), path.join(destination, filename));
    return { name, filename };
  });
}

function packInto(root: string, cacheDir: string, missing: Array<Workspace & { slot: string }>): void {
  const staging = fs.mkdtempSync(path.join(cacheDir, 'staging-'));
  try {
    const output = execFileSync('npm', ['pack', '--json', '--pack-destination', staging, ...missing.flatMap((workspace) => ['--workspace', workspace.dir])], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const { name, filename } of JSON.parse(output) as PackedWorkspace[]) {
      const workspace = missing.find((candidate) => candidate.name === name);
      if (!workspace) continue;
      const written = `${workspace.slot}.${process.pid}`;
      fs.mkdirSync(written, { recursive: true });
      fs.renameSync(path.join(staging, filename), path.join(written, filename));
      try {
        fs.renameSync(written, workspace.slot);
      } catch {
        fs.rmSync(written, { recursive: true, force: true }); // another process filled the slot first
      }
      removeOtherSlots(cacheDir, workspace.name, workspace.slot);
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** The one tarball a finished slot holds, or undefined when it is not there (yet). */
function tarballIn(slot: string): string | undefined {
  try {
    return fs.readdirSync(slot).find((file) => file.endsWith('.tgz'));
  } catch {
    return undefined;
  }
}

function slotPrefix(name: string): string {
  return `${name.replace(/^@/, '').replace(/[^a-z0-9]+/gi, '-')}--`;
}

/** Earlier contents' slots of the same workspace: they are never read again. */
function removeOtherSlots(cacheDir: string, name: string, keep: string): void {
  const prefix = slotPrefix(name);
  for (const entry of fs.readdirSync(cacheDir)) {
    const slot = path.join(cacheDir, entry);
    if (entry.startsWith(prefix) && /^[0-9a-f]{16}$/.test(entry.slice(prefix.length)) && slot !== keep) fs.rmSync(slot, { recursive: true, force: true });
  }
}

/** A hash of every file's path, size and modification time under `dir`, `node_modules` left out. */
function contentKey(dir: string): string {
  const hash = crypto.createHash('sha256');
  const walk = (relative: string): void => {
    const entries = fs.readdirSync(path.join(dir, relative), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name === 'node_modules') continue;
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else {
        const stat = fs.lstatSync(path.join(dir, child));
        hash.update(`${child}\0${stat.size}\0${stat.mtimeMs}\n`);
      }
    }
  };
  walk('');
  return hash.digest('hex').slice(0, 16);
}
