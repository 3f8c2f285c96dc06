import type { Command } from './command';

export function helpText(commands: Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  const lines = commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `Usage: tessera <command> [options]

Commands:
${lines.join('\n')}

Run "tessera help <command>" (or "tessera <command> --help") for a command's options,
"tessera --version" for the version. Through npx, put "--" before tessera's own flags
(npx --no -- tessera --help): npx reads a --help or --version that comes before the command as its own.
`;
}
