/**
 * `simsift fingerprint FILE|DIR...`: one line per file, the 64-bit SimHash as 16 lowercase hex digits,
 * two spaces and the path as given; `-` instead of the hex for a binary or too-short file, with the
 * reason on stderr. A DIR stands for the files under it (as `simsift scan` walks it). With
 * `--format parquet --out FILE` the rows go to the Parquet export instead (fingerprint-parquet-sink.ts).
 */
import { createWriteStream, openSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { createFingerprintParquetSink, type FingerprintParquetSink } from './fingerprint-parquet-sink.ts';
import { walkFiles } from './scan-command.ts';
import { createFingerprinter } from '../core/simhash/fingerprinter.ts';
import { toHex } from '../core/simhash/fingerprint64.ts';
import { createDocumentFrequencyCounter } from '../core/simhash/document-frequencies.ts';
import {
  defaultSettings,
  errorCode,
  loadText,
  parseSettingsOption,
  processIo,
  SETTINGS_USAGE,
  tooShortMessage,
  UsageError,
  write,
  type CliIo,
} from './cli-common.ts';

const USAGE = `usage: simsift fingerprint FILE|DIR... [--format text|parquet] [--out FILE] ${SETTINGS_USAGE}`;

/**
 * Runs `simsift fingerprint` with the arguments after the subcommand name; returns the exit code
 * (0 even when some files are binary or too short: they are reported; 2 for bad arguments or an
 * unreadable FILE; 1 for an unexpected failure). With --weights tfidf the given files are the corpus.
 */
export async function runFingerprint(argv: string[], io: CliIo = processIo): Promise<number> {
  try {
    const settings = defaultSettings();
    const args: string[] = [];
    let format: 'text' | 'parquet' = 'text';
    let outPath: string | undefined;
    let optionsEnded = false;
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i];
      if (!optionsEnded && (arg === '--help' || arg === '-h')) {
        await write(io.stdout, `${USAGE}\n`);
        return 0;
      }
      if (!optionsEnded && arg === '--') {
        optionsEnded = true;
        continue;
      }
      const outputOption = optionsEnded ? null : /^--(format|out)(?:=(.*))?$/.exec(arg);
      if (outputOption) {
        const value = outputOption[2] ?? argv[++i];
        if (value === undefined) throw new UsageError(`--${outputOption[1]} needs a value`);
        if (outputOption[1] === 'out') outPath = value;
        else if (value === 'text' || value === 'parquet') format = value;
        else throw new UsageError(`--format must be text or parquet (got ${JSON.stringify(value)})`);
        continue;
      }
      if (!optionsEnded && arg.startsWith('-') && arg !== '-') {
        const last = parseSettingsOption(argv, i, settings);
        if (last < 0) throw new UsageError(`unknown option ${JSON.stringify(arg)}. ${USAGE}`);
        i = last;
        continue;
      }
      args.push(arg);
    }
    if (args.length === 0) throw new UsageError(`missing FILE. ${USAGE}`);
    if (format === 'parquet' && outPath === undefined) throw new UsageError('--format parquet needs --out FILE');
    // Every FILE must be readable, and --out writable, before anything is printed.
    const files: string[] = [];
    /** Files found under a DIR: unreadable ones become rows (parquet) or `-` lines, not errors. */
    const walked = new Set<string>();
    for (const arg of args) {
      let info;
      try {
        info = await stat(arg);
      } catch (error) {
        throw new UsageError(`cannot read ${JSON.stringify(arg)} (${errorCode(error)})`);
      }
      if (!info.isDirectory()) {
        files.push(arg);
        continue;
      }
      const under = await walkFiles(arg, (path, message) => io.stderr.write(`${posix.join(arg, path)}: ${message}\n`));
      for (const rel of under) {
        const path = posix.join(arg, rel);
        files.push(path);
        walked.add(path);
      }
    }
    let fd: number | undefined;
    if (outPath !== undefined) {
      try {
        fd = openSync(outPath, 'w');
      } catch (error) {
        throw new UsageError(`cannot write --out ${JSON.stringify(outPath)} (${errorCode(error)})`);
      }
    }
    const parquet: FingerprintParquetSink | null = format === 'parquet' ? createFingerprintParquetSink(fd!, settings) : null;
    const out = parquet || fd === undefined ? io.stdout : createWriteStream('', { fd });

    let options = {};
    if (settings.weights === 'tfidf') {
      const base = createFingerprinter({ ...settings, weights: 'binary' });
      const counter = createDocumentFrequencyCounter();
      for (const file of files) {
        const loaded = await loadText(file);
        if (loaded.ok) counter.add(base.featureSet(loaded.text));
      }
      options = { documentFrequencies: counter.result() };
    }
    const fingerprinter = createFingerprinter(settings, options);
    for (const file of files) {
      const loaded = await loadText(file);
      if (!loaded.ok) {
        if (loaded.kind === 'unreadable' && !walked.has(file)) throw new UsageError(`cannot read ${JSON.stringify(file)}: ${loaded.message}`);
        await write(io.stderr, `${file}: ${loaded.message}\n`);
        if (parquet) parquet.add(file, loaded, null);
        else await write(out, `-  ${file}\n`);
        continue;
      }
      const result = fingerprinter.fingerprint(loaded.text);
      if (result.status !== 'ok') await write(io.stderr, `${file}: ${tooShortMessage(result, fingerprinter)}\n`);
      if (parquet) parquet.add(file, loaded, result);
      else await write(out, result.status === 'ok' ? `${toHex(result.hi, result.lo)}  ${file}\n` : `-  ${file}\n`);
    }
    if (parquet) {
      parquet.finish();
      io.stderr.write(`simsift fingerprint: ${parquet.rows} rows written to ${outPath}\n`);
    } else if (out !== io.stdout) {
      await new Promise<void>((resolve) => (out as NodeJS.WritableStream).end(resolve));
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`simsift fingerprint: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`simsift fingerprint: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
