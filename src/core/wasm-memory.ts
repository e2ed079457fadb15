/** A WebAssembly memory's page size (the unit of `Memory.grow`). */
const PAGE = 65536;

/** Grows `memory` so it holds at least `bytes` (a kernel's regions end there); its old buffer is detached if it grew. */
export function growMemoryTo(memory: WebAssembly.Memory, bytes: number): void {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
}
