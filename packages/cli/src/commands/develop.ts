import { parse } from '../args';
import { requireAppDir } from '../app';
import { Supervisor } from '../develop/supervisor';
import { appWatchIgnoreFiles, ignoredFiles } from '../develop/ignored-files';
import { watchFolders, type Watcher } from '../develop/watcher';
import { preparePanel } from '../panel';
import { stopWhenParentGone } from '../parent-watch';
import { say, type Command } from './command';

const WATCHED = ['src', 'config'];

export const develop: Command = {
  name: 'develop',
  summary: 'run the app for development, restarting it when src/ or config/ change',
  usage: `Usage: tessera develop

Runs the app in the current directory (NODE_ENV=development) in a child
process and restarts it when a file under src/ or config/ changes (not the
files Strapi's develop ignores, such as documentation/ folders, nor those
config/admin's watchIgnoreFiles lists). A boot
error is printed and the next change retries. Ctrl-C stops everything.
An app with @strapi/admin gets its admin panel built into build/ first, and
rebuilt when its plugins, their versions or src/admin changed.`,
  async run(args) {
    parse(args, {});
    requireAppDir();
    const dir = process.cwd();
    // An app with @strapi/admin gets its panel built before the first boot, and again when what it is built from changed.
    // strapi.reload() (the content-type builder, after writing schema files) joins the watcher's batch: one restart.
    let watcher: Watcher | undefined;
    const supervisor = new Supervisor(dir, say, async () => void (await preparePanel(dir, say)), (reason) => (watcher ? watcher.poke(reason) : supervisor.restart(reason)));
    // Files Strapi's develop ignores (plugins rewrite some at every boot) and the app's admin.watchIgnoreFiles.
    const ignored = ignoredFiles(dir, appWatchIgnoreFiles(dir));
    watcher = watchFolders(dir, WATCHED, (files, reasons) => supervisor.restart(describeChange(files, reasons)), 200, ignored);
    supervisor.start();
    stopWhenParentGone();
    await onceSignalled();
    watcher.close();
    await supervisor.shutdown();
    return 0;
  },
};

function describeChange(files: string[], reasons: string[] = []): string {
  const shown = files.slice(0, 3).join(', ');
  const changed = files.length === 0 ? [] : [files.length > 3 ? `${shown} and ${files.length - 3} more changed` : `${shown} changed`];
  return [...reasons, ...changed].join('; ');
}

function onceSignalled(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
