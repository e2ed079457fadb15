/** The text-diff worker: exposes diffApi over comlink and nothing else. */
import { expose } from 'comlink';
import { diffApi } from './diff-api.ts';

expose(diffApi);
