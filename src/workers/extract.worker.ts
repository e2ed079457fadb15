/** The document-extraction worker: exposes `extractApi` over comlink and nothing else. */
import { expose } from 'comlink';
import { extractApi } from './extract-api.ts';

expose(extractApi);
