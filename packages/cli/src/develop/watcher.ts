/**
 * Watches folder trees and reports batches of changed paths after a quiet
 * period, so an editor's save-as-several-writes or a `git checkout` triggers
 * one restart, not ten.
 *
 * Every directory gets its own (non-recursive) fs.watch instead of one
 * `recursive: true` watch: on Linux, Node 20's recursive mode watches each
 * file and goes deaf to a file once it is replaced by a rename — which is
 * how sed -i and many editors save. A directory watch sees those renames.
 * After each batch the tree is re-scanned to watch new folders.
 *
 * A file's events are counted once per change of its size or modification
 * time: one write can reach the watcher as several events, and on a busy
 * machine they can straddle a batch; the late ones then found the file as the
 * first batch did and restarted the app a second time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ignoredFiles, type IgnoredTest } from './ignored-files';

export interface Watcher {
  close(): void;
  /**
   * A restart asked for without a file event (`strapi.reload()`), batched with the changes around it: the
   * content-type builder writes files then reloads, and that is one restart, not one per cause.
   */
  poke(reason: string): void;
}

/** `isIgnored`: the files that never restart the app (ignored-files.ts; Strapi's list by default). `reasons`: the pokes in the batch. */
export function watchFolders(root: string, folders: string[], onChange: (files: string[], reasons: string[]) => void, debounceMs = 200, isIgnored: IgnoredTest = ignoredFiles(root)): Watcher {
  const watchers = new Map<string, fs.FSWatcher>();
  const pending = new Set<string>();
  const reasons = new Set<string>();
  /** Each file's size and modification time when a batch last reported it (or `gone`). */
  const reported = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const sync = () => {
    const present = new Set(folders.flatMap((folder) => directories(root, folder, isIgnored)));
    for (const [dir, watcher] of watchers) if (!present.has(dir)) closeWatcher(dir, watcher);
    for (const dir of present) if (!watchers.has(dir)) watchDir(dir);
  };
  const closeWatcher = (dir: string, watcher: fs.FSWatcher) => {
    watcher.close();
    watchers.delete(dir);
  };
  const watchDir = (dir: string) => {
    try {
      const watcher = fs.watch(path.join(root, dir), (_event, name) => changed(path.join(dir, String(name ?? ''))));
      watcher.on('error', () => closeWatcher(dir, watcher)); // the folder went away; the next sync settles it
      watchers.set(dir, watcher);
    } catch {
      // Removed between listing and watching: nothing to watch.
    }
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  const changed = (relative: string) => {
    if (closed || isIgnored(relative)) return;
    pending.add(relative);
    schedule();
  };
  const flush = () => {
    timer = undefined;
    sync();
    const files = [...pending].sort().filter((file) => {
      const state = fileState(root, file);
      if (reported.get(file) === state) return false;
      reported.set(file, state);
      return !holdsNoWatchedFile(root, file, isIgnored);
    });
    const asked = [...reasons];
    pending.clear();
    reasons.clear();
    if (files.length > 0 || asked.length > 0) onChange(shown(root, files), asked);
  };

  sync();
  return {
    poke(reason) {
      if (closed) return;
      reasons.add(reason);
      schedule();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const [dir, watcher] of watchers) closeWatcher(dir, watcher);
    },
  };
}

/** A file's size and modification time, or `gone`: what a batch compares with the last one that reported it. */
function fileState(root: string, file: string): string {
  const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
  return stat ? `${stat.size}:${stat.mtimeMs}` : 'gone';
}

/**
 * Is `relative` a folder holding no file that restarts the app (empty, or only ignored files)? A plugin that makes
 * `src/extensions/upload/documentation/…` at boot, after the watch began, changes nothing of the app's: the folder's
 * own event must not restart it (on a busy machine that write lands after the first boot is ready). A file, or a
 * path that is gone, is a change. Files written into a new folder before its watch began are seen here, as its
 * contents.
 */
function holdsNoWatchedFile(root: string, relative: string, isIgnored: IgnoredTest): boolean {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
  } catch {
    return false;
  }
  return entries.every((entry) => {
    const child = path.join(relative, entry.name);
    return isIgnored(child) || (entry.isDirectory() && holdsNoWatchedFile(root, child, isIgnored));
  });
}

/** `folder` and its sub-folders (relative to root), skipping ignored ones. */
function directories(root: string, folder: string, isIgnored: IgnoredTest): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, folder), { withFileTypes: true });
  } catch {
    return [];
  }
  const children = entries.filter((entry) => entry.isDirectory() && !isIgnored(path.join(folder, entry.name)));
  return [folder, ...children.flatMap((entry) => directories(root, path.join(folder, entry.name), isIgnored))];
}

/** The files that still exist (an editor's temporary files are gone by now), or all when only deletions happened. */
function shown(root: string, files: string[]): string[] {
  const existing = files.filter((file) => fs.existsSync(path.join(root, file)));
  return existing.length > 0 ? existing : files;
}
