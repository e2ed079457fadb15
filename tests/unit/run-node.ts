/** Runs a Node child for tests that must survive a hang of the code under test (a synchronous loop cannot be stopped in-process). */
import { spawn, type ChildProcess } from 'node:child_process';

/** A finished child: its exit code and what it wrote. */
export type NodeRun = { code: number | null; out: string; err: string };

/**
 * Runs `node ...args` (or `program ...args`) and resolves when it ends; a hang detector (not a duration
 * check) kills it and rejects after `hangMs`. `onStart` gets the child (to signal it while it runs).
 */
export function runNode(
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; hangMs?: number; onStart?: (child: ChildProcess) => void; program?: string } = {},
): Promise<NodeRun> {
  const hangMs = options.hangMs ?? 60_000;
  return new Promise((done, fail) => {
    const child = spawn(options.program ?? process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    options.onStart?.(child);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`hung: killed after ${hangMs / 1000} s (stderr: ${err.slice(0, 500)})`));
    }, hangMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}
