/**
 * The command line's options, read by `node:util`'s parseArgs from one table per command, with one
 * set of messages for every command: an unknown option, a missing value, a value given to a flag, and
 * the thread-count rule. Every failure is a UsageError (cli-common.ts `failure`: one line, exit code 2).
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { MAX_WORKERS, poolSize } from '../workers/pool-size.ts';
import { UsageError } from './cli-common.ts';

/** One option of a command: a flag (boolean) or a value (string), repeatable when `multiple`. */
export type OptionSpec = { type: 'boolean' | 'string'; multiple?: boolean; short?: string };
export type OptionTable = Record<string, OptionSpec>;

/** The values parsed from a table: a flag is true, a value its string, a repeatable value its strings; absent when not given. */
export type OptionValues<T extends OptionTable> = {
  [K in keyof T]?: T[K]['type'] extends 'boolean' ? true : T[K]['multiple'] extends true ? string[] : string;
};

/** What a command line holds: the options' values and the other arguments (operands), in order. */
export type ParsedOptions<T extends OptionTable> = { values: OptionValues<T>; positionals: string[] };

/**
 * Reads `argv` (the arguments after the command's name) by `table`, or returns 'help' for `--help`/`-h`.
 * `--name value` and `--name=value` both work; `--` ends the options. Values are taken as given, even
 * when they start with '-' (`--k -1` is a bad k, not an unknown option), so each option's own check says
 * what is wrong with it. An option not in the table, a value missing or given to a flag throws a UsageError.
 */
export function parseOptions<T extends OptionTable>(argv: string[], table: T, usage: string): ParsedOptions<T> | 'help' {
  const { tokens } = parseArgs({
    args: argv,
    options: { ...table, help: { type: 'boolean', short: 'h' } },
    // Strictness is checked below, from the tokens, so that every command says the same thing.
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, true | string | string[]> = {};
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    if (token.name === 'help') return 'help';
    // `simsift fingerprint *` beside a file named `--out` would make the next name the output: an option
    // written apart from its value that is also a file's name here is refused (`--out=FILE` still works).
    if (!token.inlineValue && existsSync(token.rawName)) {
      throw new UsageError(
        `${JSON.stringify(token.rawName)} is also the name of a file here: a shell pattern such as * may have put it among the arguments; name files as ./* or after --, or write the option as ${token.rawName}=VALUE`,
      );
    }
    const spec = Object.hasOwn(table, token.name) ? table[token.name] : undefined;
    if (!spec) throw new UsageError(`unknown option ${JSON.stringify(token.rawName)}. ${usage}`);
    if (spec.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`--${token.name} takes no value`);
      values[token.name] = true;
    } else {
      if (token.value === undefined) throw new UsageError(`--${token.name} needs a value. ${usage}`);
      if (spec.multiple) ((values[token.name] ??= []) as string[]).push(token.value);
      else values[token.name] = token.value;
    }
  }
  return { values: values as OptionValues<T>, positionals };
}

/** The one operand a command takes (`DIR`, `FILE`): missing or a second one is a usage error. */
export function oneOperand(positionals: readonly string[], name: string, usage: string): string {
  if (positionals.length === 0) throw new UsageError(`missing ${name}. ${usage}`);
  if (positionals.length > 1) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[1])}. ${usage}`);
  return positionals[0]!;
}

/** The most threads any command starts: the app's pool rule (workers/pool-size.ts), one for the CLI too. */
export const MAX_THREADS = MAX_WORKERS;

/** The default thread count: one per core, at most MAX_THREADS (as the app's pool). */
export function defaultThreads(): number {
  return poolSize(availableParallelism());
}

/** Parses `--threads`: an integer in 1..MAX_THREADS; undefined when not given. */
export function parseThreads(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > MAX_THREADS) {
    throw new UsageError(`--threads must be an integer in 1..${MAX_THREADS} (got ${JSON.stringify(value)})`);
  }
  return Number(value);
}
