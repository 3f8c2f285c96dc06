import { parse } from '../args';
import { requireAppDir } from '../app';
import { preparePanel } from '../panel';
import { say, type Command } from './command';

export const build: Command = {
  name: 'build',
  summary: "build Strapi's admin panel into build/ (apps that have @strapi/admin)",
  usage: `Usage: tessera build [--no-minify]

Builds the admin panel of the app in the current directory with its installed
@strapi/admin (Strapi 4.26.2's own webpack build) and the admin sides of its
plugins, into build/, as strapi build lays it out. tessera start serves it at
admin.url (default /admin). An app without @strapi/admin has no panel.`,
  async run(args) {
    const parsed = parse(args, { 'no-minify': { type: 'boolean' } });
    requireAppDir();
    const outcome = await preparePanel(process.cwd(), say, { force: true, minify: parsed.options['no-minify'] !== true });
    if (outcome === 'no-admin') {
      say('this app has no admin panel: add @strapi/admin (npm install @strapi/admin@4.26.2 react@18 react-dom@18 react-router-dom@5.3.4 styled-components@5.3.3)');
      return 1;
    }
    return 0;
  },
};
