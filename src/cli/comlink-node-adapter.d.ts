// comlink ships its Node adapter as dist/esm/node-adapter.mjs with a .d.ts beside it that TypeScript
// does not pair with an .mjs import; these are that file's declarations.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  export interface NodeEndpoint {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as comlink declares it
    postMessage(message: any, transfer?: any[]): void;
    on(type: string, listener: (...args: any[]) => void): void;
    off(type: string, listener: (...args: any[]) => void): void;
    start?: () => void;
  }
  export default function nodeEndpoint(nep: NodeEndpoint): Endpoint;
}
