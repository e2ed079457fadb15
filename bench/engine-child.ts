/**
 * One `simsift pairs` run in its own process for `npm run bench -- engine`, so its peak memory (RSS,
 * DuckDB's native memory included) is its own: runs the command, then prints `maxrss_kb=N` to stderr.
 */
import { runPairs } from '../src/cli/pairs-command.ts';

const code = await runPairs(process.argv.slice(2));
process.stderr.write(`maxrss_kb=${process.resourceUsage().maxRSS}\n`);
process.exitCode = code;
