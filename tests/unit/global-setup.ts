/**
 * Brings the CLI's bundle up to date with the sources before the unit tests: the CLI's worker threads
 * then start from it (src/cli/thread-bootstrap.ts) instead of through tsx, in every test that scans.
 */
import { cliEntry } from '../../bin/build-cli.js';

export default async function setup(): Promise<void> {
  await cliEntry();
}
