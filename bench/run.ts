/** `npm run bench -- NAME [args]`: runs bench/NAME.ts, which prints its own figures. */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const [name, ...args] = process.argv.slice(2);
const available = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.slice(0, -'.bench.ts'.length))
  .sort();

if (!name || !existsSync(join(here, `${name}.bench.ts`))) {
  console.error(`usage: npm run bench -- NAME [args]\nbenchmarks: ${available.join(', ') || '(none yet)'}`);
  process.exit(name ? 2 : 0);
}
const bench = (await import(pathToFileURL(join(here, `${name}.bench.ts`)).href)) as {
  main(args: string[]): Promise<void>;
};
await bench.main(args);
