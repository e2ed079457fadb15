/** Runs a CLI command in this process with captured output, for the command tests. */
import { PassThrough } from 'node:stream';
import type { CliIo } from '../../../src/cli/cli-common.ts';

/** A command's entry point: the arguments after its name, where it writes; resolves to the exit code. */
export type Command = (argv: string[], io: CliIo) => Promise<number>;

/** Runs `command` with `argv`, returning its exit code and everything it wrote to stdout and stderr. */
export async function runCommand(command: Command, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += c));
  stderr.on('data', (c) => (err += c));
  const code = await command(argv, { stdout, stderr });
  return { code, out, err };
}
