/** What every `tessera <command>` module exports. */
export interface Command {
  name: string;
  /** One line for `tessera --help`. */
  summary: string;
  /** Full usage text for `tessera help <command>` / `tessera <command> --help`. */
  usage: string;
  /** Resolves with the process exit code. */
  run(args: string[]): Promise<number>;
}

export function say(message: string): void {
  process.stdout.write(`[tessera] ${message}\n`);
}

/** Messages that must never mix with a command's stdout result. */
export function note(message: string): void {
  process.stderr.write(`${message}\n`);
}
