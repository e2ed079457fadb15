/**
 * The `simsift` command line: dispatches `fingerprint`, `scan`, `pairs` and `apply` to their modules and
 * exits with their code. Runs on import (bin/simsift.js and `npm run simsift` load this file).
 */
import { processIo, reportFailure, UsageError, write, type CliIo } from './cli-common.ts';
import { flushStream, guardStream } from './atomic-file.ts';

const USAGE = `usage: simsift COMMAND [ARGS]

commands:
  fingerprint FILE|DIR...  print each file's 64-bit SimHash (16 hex digits) and path
                           (--format parquet --out FILE: the Parquet export)
  scan DIR                 find near-duplicate files under DIR; writes the pairs CSV
  pairs FILE --k N         all pairs within distance k of the fingerprints in FILE (text or Parquet;
                           --engine duckdb runs the search as SQL in DuckDB)
  apply PLAN --into DIR    move the files a keep plan marks remove into a quarantine folder
                           (--dry-run; --undo LOG puts them back)

run 'simsift COMMAND --help' for a command's options
`;

/** Runs one command line (the arguments after `simsift`) and returns its exit code. */
export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    // Each command's modules (Parquet, DuckDB's native module, the worker pools) load only when it runs.
    case 'fingerprint':
      return (await import('./fingerprint-command.ts')).runFingerprint(rest, io);
    case 'scan':
      return (await import('./scan-command.ts')).runScan(rest, io);
    case 'pairs':
      return (await import('./pairs-command.ts')).runPairs(rest, io);
    case 'apply':
      return (await import('./apply-command.ts')).runApply(rest, io);
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      try {
        await write(io.stdout, USAGE);
      } catch (error) {
        return reportFailure('', error, io);
      }
      return command === undefined ? 2 : 0;
    default:
      // The one failure path of every command: one line, escaped for the terminal, exit code 2.
      return reportFailure('', new UsageError(`unknown command ${JSON.stringify(command)} (expected fingerprint, scan, pairs or apply)`), io);
  }
}

// A failed write to stdout or stderr (a closed pipe, a full disk) reaches the command as a rejected
// write, never as an uncaught 'error' event with a stack trace (atomic-file.ts).
guardStream(process.stdout);
guardStream(process.stderr);
process.exitCode = await main(process.argv.slice(2));
// `pairs` returns once its threads are closed and its output committed or removed: it exits now, once
// stdout and stderr have taken every write, rather than after Node tears down the heap (a third of the
// syscalls of a 1M-fingerprint run, most unmapping memory the process is about to lose anyway). Not yet
// the others: fingerprint's Parquet output still removes its temporary file after it returns on ENOSPC.
if (process.argv[2] === 'pairs') {
  await Promise.allSettled([flushStream(process.stdout), flushStream(process.stderr, 'stderr')]);
  process.exit();
}
