/**
 * What SIGINT and SIGTERM do to a running `simsift apply` or `--undo`: they are caught while it holds its
 * root's lock, the move under way finishes, and the command ends with 128 + the signal's number. And the
 * test hook that acts, just before a move, as another process might.
 */

/** The exit code of a command stopped by each signal (128 + its number). */
export const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143 } as const;

/** Catches SIGINT and SIGTERM from now until `stop`: the command finishes the move under way, then ends. */
export function watchSignals(): { readonly caught: keyof typeof SIGNAL_CODES | null; stop(): void } {
  const state: { caught: keyof typeof SIGNAL_CODES | null; stop(): void } = {
    caught: null,
    stop: () => {
      for (const [signal, handler] of Object.entries(handlers)) process.off(signal, handler);
    },
  };
  const handlers = { SIGINT: () => (state.caught ??= 'SIGINT'), SIGTERM: () => (state.caught ??= 'SIGTERM') };
  for (const [signal, handler] of Object.entries(handlers)) process.on(signal, handler);
  return state;
}

/** What watchSignals returns: the first signal caught, and how to stop watching. */
export type Signals = ReturnType<typeof watchSignals>;

/** Test hooks: `beforeMove` runs just before each move of apply or undo (after every check), as another process might act. */
export interface ApplyHooks {
  beforeMove?(path: string): void | Promise<void>;
}
