/**
 * `npm run sql -- [--k K] [--blocks M] [--n N]`: prints the pairs SQL for k (default 3) with the
 * block count DuckDB does best with for N fingerprints (default 10,000,000), or M blocks.
 * sql/near-duplicate-pairs.sql is its output for the defaults (a unit test keeps them equal).
 */
import { chooseSqlBlocks, pairsSqlScript } from '../src/core/index/pairs-sql.ts';

let k = 3;
let n = 10_000_000;
let blocks: number | undefined;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const [name, inline] = args[i].split('=', 2);
  const value = Number(inline ?? args[++i]);
  if (name === '--k') k = value;
  else if (name === '--n') n = value;
  else if (name === '--blocks') blocks = value;
  else throw new Error(`unknown option ${args[i]} (expected --k, --blocks, --n)`);
}
process.stdout.write(pairsSqlScript(k, blocks ?? chooseSqlBlocks(n, k)));
