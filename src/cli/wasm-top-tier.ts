/**
 * Owns V8's WebAssembly tier for the commands that import it: kernels compiled by the optimizing
 * compiler from the start (V8's --no-liftoff), not first by the baseline one. V8 moves a function to
 * its optimized code only at its next call, and a one-shot search calls each kernel function a few
 * times, each call long (one table's grouping of every fingerprint): its first call in each thread ran
 * entirely in baseline code. The flag is process-wide (worker threads too) and read at each compile.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-liftoff');
