/** The index worker: exposes `indexApi` over comlink and nothing else. */
import { expose } from 'comlink';
import { indexApi } from './index-api.ts';

expose(indexApi);
