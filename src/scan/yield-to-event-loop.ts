/** Cooperative yielding for main-thread loops, so no task runs long enough to freeze the page. */

/** Resolves on a fresh macrotask (MessageChannel: not clamped like nested setTimeout). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** A time-sliced loop helper: call `maybeYield()` per item; it yields once `budgetMs` has passed. */
export function createTimeSlicer(budgetMs = 12): () => Promise<void> | null {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < budgetMs) return null;
    return yieldToEventLoop().then(() => {
      sliceStart = performance.now();
    });
  };
}
