/**
 * `tessera` command line: start an app; more commands register in commands.ts.
 */
import { App } from '@tessera/core';
import restPlugin from '@tessera/plugin-rest';

export async function main(argv: string[]): Promise<void> {
  const [command] = argv;
  const app = new App({ dir: process.cwd(), plugins: [restPlugin] });
  if (command === 'start') process.env.NODE_ENV = process.env.NODE_ENV ?? 'production';
  await app.start();
  const stop = async () => {
    await app.destroy();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
