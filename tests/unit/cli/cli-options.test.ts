// Every command reads its options the same way (node:util parseArgs over one table per command) and
// fails the same way: one line, escaped, exit code 2.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { runScan } from '../../../src/cli/scan-command.ts';
import { runPairs } from '../../../src/cli/pairs-command.ts';
import { runFingerprint } from '../../../src/cli/fingerprint-command.ts';
import { parseOptions, MAX_THREADS } from '../../../src/cli/cli-options.ts';
import { runCommand, type Command } from './run-command.ts';

const commands: Array<[string, Command]> = [
  ['scan', runScan],
  ['pairs', runPairs],
  ['fingerprint', runFingerprint],
];

describe('one options reader for every command', () => {
  it.each(commands)('%s: an unknown option, a missing value and a bad thread count are usage errors on one escaped line', async (name, command) => {
    for (const [argv, message] of [
      [['x', '--frobnicate'], /unknown option "--frobnicate"/],
      [['x', '--no\x1b[31m'], /unknown option "--no\\u001b\[31m"/],
      [['x', '--out'], /--out needs a value/],
      [['x', '--threads', '0'], new RegExp(`--threads must be an integer in 1\\.\\.${MAX_THREADS}`)],
      [['x', `--threads=${MAX_THREADS + 1}`], /--threads must be an integer/],
    ] as const) {
      const r = await runCommand(command, [...argv]);
      expect(r.code, `${name} ${argv.join(' ')}`).toBe(2);
      expect(r.err).toMatch(new RegExp(`^simsift ${name}: `));
      expect(r.err).toMatch(message);
      expect(r.err).not.toContain('\x1b');
      expect(r.err.trim().split('\n')).toHaveLength(1);
    }
  });

  it.each(commands)('%s: -- ends the options, so a name that starts with a dash is an operand', async (name, command) => {
    const r = await runCommand(command, ['--', '--not-an-option']);
    expect(r.code, name).toBe(2);
    expect(r.err).toMatch(/cannot read "--not-an-option"/);
  });

  it('takes --name=value and --name value alike, and values that start with a dash as values', () => {
    const table = { out: { type: 'string' }, exclude: { type: 'string', multiple: true }, paths: { type: 'boolean' } } as const;
    expect(parseOptions(['a', '--out=x', '--exclude', '*.log', '--exclude=-y', '--paths', '--', '--b'], table, 'usage')).toEqual({
      values: { out: 'x', exclude: ['*.log', '-y'], paths: true },
      positionals: ['a', '--b'],
    });
    expect(parseOptions(['--out', '-'], table, 'usage')).toEqual({ values: { out: '-' }, positionals: [] });
    expect(parseOptions(['a', '-h'], table, 'usage')).toBe('help');
    expect(() => parseOptions(['--paths=yes'], table, 'usage')).toThrow('--paths takes no value');
  });

  it('is quiet when the reader of --help goes away (EPIPE)', async () => {
    for (const [, command] of commands) {
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      let err = '';
      stderr.on('data', (c) => (err += c));
      stdout.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      const code = await command(['--help'], { stdout, stderr });
      expect(code).toBe(0);
      expect(err).toBe('');
    }
  });
});
