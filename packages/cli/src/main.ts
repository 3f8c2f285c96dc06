/**
 * `tessera` command line: dispatches to one module per command.
 * Exit codes: 0 done, 1 failure (boot error, token not found...), 2 usage error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from './args';
import { NotAnAppError } from './app';
import type { Command } from './commands/command';
import { apiToken } from './commands/api-token';
import { build } from './commands/build';
import { develop } from './commands/develop';
import { generate } from './commands/generate';
import { generateTypes } from './commands/generate-types';
import { routes } from './commands/routes';
import { run } from './commands/run';
import { openapi } from './commands/openapi';
import { helpText } from './commands/help';
import { newApp } from './commands/new';
import { start } from './commands/start';
import { webhooks } from './commands/webhooks';

const COMMANDS: Command[] = [newApp, develop, build, start, apiToken, webhooks, generate, generateTypes, routes, openapi, run];
const HELP_FLAGS = ['--help', '-h'];
const VERSION_FLAGS = ['--version', '-v', 'version'];

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || HELP_FLAGS.includes(name)) return printHelp(process.stdout, 0);
  if (name === 'help') return args[0] ? printUsage(args[0]) : printHelp(process.stdout, 0);
  if (VERSION_FLAGS.includes(name)) return printVersion();
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n`);
    return printHelp(process.stderr, 1);
  }
  if (args.some((arg) => HELP_FLAGS.includes(arg))) return printUsage(name);
  return runCommand(command, args);
}

async function runCommand(command: Command, args: string[]): Promise<number> {
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof NotAnAppError) {
      process.stderr.write(`tessera ${command.name}: ${error.message}\n`);
      return 1;
    }
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`tessera ${command.name}: ${error.message}\n\n${command.usage}\n`);
    return 2;
  }
}

function printHelp(stream: NodeJS.WritableStream, code: number): number {
  stream.write(helpText(COMMANDS));
  return code;
}

function printUsage(name: string): number {
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    process.stderr.write(`Unknown command "${name}".\n\n`);
    return printHelp(process.stderr, 1);
  }
  process.stdout.write(`${command.usage}\n`);
  return 0;
}

/** The CLI package's version alone on stdout, as `strapi --version` prints its own. */
function printVersion(): number {
  // dist/src/main.js → the package's package.json; read at run time so the printed version is the installed one.
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string };
  process.stdout.write(`${manifest.version}\n`);
  return 0;
}
