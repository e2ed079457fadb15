/**
 * `simsift fingerprint FILE...`: one line per file, the 64-bit SimHash as 16 lowercase hex digits,
 * two spaces and the path as given; `-` instead of the hex for a binary or too-short file, with the
 * reason on stderr.
 */
import { stat } from 'node:fs/promises';
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

const USAGE = `usage: simsift fingerprint FILE... ${SETTINGS_USAGE}`;

/**
 * Runs `simsift fingerprint` with the arguments after the subcommand name; returns the exit code
 * (0 even when some files are binary or too short: they are reported; 2 for bad arguments or an
 * unreadable FILE; 1 for an unexpected failure). With --weights tfidf the given files are the corpus.
 */
export async function runFingerprint(argv: string[], io: CliIo = processIo): Promise<number> {
  try {
    const settings = defaultSettings();
    const files: string[] = [];
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
      if (!optionsEnded && arg.startsWith('-') && arg !== '-') {
        const last = parseSettingsOption(argv, i, settings);
        if (last < 0) throw new UsageError(`unknown option ${JSON.stringify(arg)}. ${USAGE}`);
        i = last;
        continue;
      }
      files.push(arg);
    }
    if (files.length === 0) throw new UsageError(`missing FILE. ${USAGE}`);
    // Every FILE must be readable before anything is printed.
    for (const file of files) {
      let info;
      try {
        info = await stat(file);
      } catch (error) {
        throw new UsageError(`cannot read ${JSON.stringify(file)} (${errorCode(error)})`);
      }
      if (info.isDirectory()) throw new UsageError(`${JSON.stringify(file)} is a directory (use simsift scan DIR)`);
    }

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
        if (loaded.kind === 'unreadable') throw new UsageError(`cannot read ${JSON.stringify(file)}: ${loaded.message}`);
        await write(io.stderr, `${file}: ${loaded.message}\n`);
        await write(io.stdout, `-  ${file}\n`);
        continue;
      }
      const result = fingerprinter.fingerprint(loaded.text);
      if (result.status !== 'ok') {
        await write(io.stderr, `${file}: ${tooShortMessage(result, fingerprinter)}\n`);
        await write(io.stdout, `-  ${file}\n`);
      } else {
        await write(io.stdout, `${toHex(result.hi, result.lo)}  ${file}\n`);
      }
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
