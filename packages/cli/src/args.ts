/**
 * Argument parsing over node:util's parseArgs (no dependency): every problem
 * becomes a UsageError, which the CLI reports with exit code 2.
 */
import { parseArgs } from 'node:util';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
}

export interface ParsedArgs {
  options: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export function parse(args: string[], options: Record<string, OptionSpec>, maxPositionals = 0): ParsedArgs {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(cleanMessage((error as Error).message));
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument "${parsed.positionals[maxPositionals]}"`);
  }
  return { options: parsed.values as ParsedArgs['options'], positionals: parsed.positionals };
}

/** node's messages end with hints about `--` that do not apply to this CLI. */
function cleanMessage(message: string): string {
  return message.split('. To specify')[0]!.replace(/\.$/, '');
}

export function requireString(parsed: ParsedArgs, name: string): string {
  const value = parsed.options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function optionalString(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.options[name];
  return typeof value === 'string' ? value : undefined;
}
