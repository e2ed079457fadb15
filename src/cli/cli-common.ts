/**
 * What the `simsift` subcommands share: their output streams, the usage error that becomes a
 * one-line message and exit code 2, and option parsing for the SimHash settings (reading a file into
 * its compared text is load-text.ts).
 */
import { BrokenPipeError, OutputError, writeStream } from './atomic-file.ts';
import { terminalText } from './terminal-names.ts';
import {
  DEFAULT_SETTINGS,
  formatFeatureSpec,
  parseFeatureSpec,
  parseWeightScheme,
  type SimHashSettings,
} from '../core/simhash/settings.ts';

/** Where a command writes. `isTTY` on stderr turns the progress line on. */
export type CliIo = {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
};

/** The process's own streams. */
export const processIo: CliIo = { stdout: process.stdout, stderr: process.stderr };

/** Bad arguments or unreadable input: printed as one line, exit code 2. */
export class UsageError extends Error {}

/** A pair search would report more pairs than allowed; its message says how many and what to do. */
export class TooManyPairsError extends UsageError {}


/** Options every fingerprinting command takes: --features, --weights, --stop-words. */
export const SETTINGS_USAGE = '[--features word3|word1|char5|...] [--weights binary|tf|tfidf] [--stop-words]';

/** The settings options every fingerprinting command takes (a part of its options table, cli-options.ts). */
export const SETTINGS_OPTIONS = {
  features: { type: 'string' },
  weights: { type: 'string' },
  'stop-words': { type: 'boolean' },
} as const;

/** The SimHash settings the parsed settings options give (the defaults for those not given). */
export function settingsFromOptions(values: { features?: string; weights?: string; 'stop-words'?: true }): SimHashSettings {
  const settings = defaultSettings();
  if (values.features !== undefined) {
    const spec = parseFeatureSpec(values.features);
    if (!spec) throw new UsageError(`--features must be wordN or charN with N in 1..16 (got ${JSON.stringify(values.features)})`);
    settings.features = spec;
  }
  if (values.weights !== undefined) {
    const weights = parseWeightScheme(values.weights);
    if (!weights) throw new UsageError(`--weights must be binary, tf or tfidf (got ${JSON.stringify(values.weights)})`);
    settings.weights = weights;
  }
  if (values['stop-words']) settings.stopWords = true;
  return settings;
}

/** A mutable copy of the default settings for option parsing. */
export function defaultSettings(): SimHashSettings {
  return { features: { ...DEFAULT_SETTINGS.features }, weights: DEFAULT_SETTINGS.weights, stopWords: false };
}

/** "word3, binary" (+ ", stop words"), for summaries. */
export function describeSettings(s: SimHashSettings): string {
  return `${formatFeatureSpec(s.features)}, ${s.weights}${s.stopWords ? ', stop words' : ''}`;
}

/** Parses --k: an integer in 0..64. */
export function parseK(value: string | undefined): number {
  if (value === undefined) throw new UsageError('--k needs a value');
  if (!/^\d{1,3}$/.test(value) || Number(value) > 64) {
    throw new UsageError(`--k must be an integer in 0..64 (got ${JSON.stringify(value)})`);
  }
  return Number(value);
}

/** Why a file could not be read, for messages: "ENOENT", "EACCES", ... */
export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException)?.code ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Writes text to a stream, waiting for it to drain when its buffer is full; a failure rejects with
 * atomic-file.ts's BrokenPipeError (the reader went away) or OutputError (one line), never an uncaught error.
 */
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return writeStream(stream, text, stream === process.stderr ? 'stderr' : 'stdout');
}

/**
 * Ends a command that failed: writes its one line (if any) to stderr and returns its exit code (see
 * `failure`). Every command's catch ends here.
 */
export function reportFailure(command: string, error: unknown, io: { stderr: NodeJS.WritableStream }): number {
  const { code, line } = failure(command, error);
  if (line) io.stderr.write(line);
  return code;
}

/**
 * The exit code and the one line (if any) for a command's failure: bad arguments 2, an output that could
 * not be written or any other failure 1, a reader that went away 0 and nothing said (as `head` expects).
 * Every line is made safe for the terminal (escaped controls), so a quoted name cannot drive it.
 */
export function failure(command: string, error: unknown): { code: number; line: string } {
  if (error instanceof BrokenPipeError) return { code: 0, line: '' };
  const who = command === '' ? 'simsift' : `simsift ${command}`;
  if (error instanceof UsageError) return { code: 2, line: `${who}: ${terminalText(error.message)}\n` };
  if (error instanceof OutputError) return { code: 1, line: `${who}: ${terminalText(error.message)}\n` };
  return { code: 1, line: `${who}: failed: ${terminalText(error instanceof Error ? error.message : String(error))}\n` };
}
