/** The export worker: exposes exportApi over comlink and nothing else. */
import { expose } from 'comlink';
import { exportApi } from './export-api.ts';

expose(exportApi);
