/** `simsift scan`'s command line: its usage, its help text, and its options parsed into `ScanArgs`. */
import { DEFAULT_K, DEFAULT_RECALL, DEFAULT_SIMILARITY_THRESHOLD } from '../core/quality/defaults.ts';
import { DEFAULT_CONTAINMENT, CONTAINMENT_DEFAULT_SETTING } from '../core/groups/contained-pairs.ts';
import { parseSize, patternProblem, type Exclusions } from '../core/documents/exclusions.ts';
import { planFromOptions, KEEP_OPTIONS, KEEP_USAGE, KEEP_HELP, type PlanOptions } from './plan-output.ts';
import { MAX_THREADS, oneOperand, parseOptions, parseThreads } from './cli-options.ts';
import { defaultSettings, parseK, SETTINGS_OPTIONS, SETTINGS_USAGE, settingsFromOptions, UsageError } from './cli-common.ts';

export const USAGE =
  `usage: simsift scan DIR [--k N] [--similarity T] [--containment T] [--groups reference|components] ` +
  `${SETTINGS_USAGE} [--out FILE.csv] [--threads T] [--pairs FILE] [--exclude GLOB]... [--min-size S] [--max-size S] [--cache FILE [--reread]] [--bundle FILE.simsift] ${KEEP_USAGE}`;

export type Grouping = 'reference' | 'components';

export type ScanArgs = {
  dir: string;
  /** Undefined: DEFAULT_K. */
  k: number | undefined;
  threshold: number;
  /** `--containment T`: "A is contained in B" at >= T (0: off). */
  containment: number;
  grouping: Grouping;
  out: string | undefined;
  /** Ingest threads; undefined means one per core. */
  threads: number | undefined;
  settings: ReturnType<typeof defaultSettings>;
  /** A pairs file found elsewhere (`simsift pairs --out x.parquet`, DuckDB, Spark): the candidates instead of the search. */
  pairs: string | undefined;
  /** `--plan FILE` and the keep rules (`--keep`, `--protect`, `--mark-near`). */
  plan: PlanOptions;
  /** `--exclude GLOB` (repeatable), `--min-size`, `--max-size`: files never read, listed with the rule. */
  exclusions: Exclusions;
  /** `--cache FILE`: the folder's last scan, so this one reads only what changed (cached-scan.ts); `--reread`: read every file anyway. */
  cache: string | undefined;
  reread: boolean;
  /** `--bundle FILE`: the finished scan for the page to open beside the folder (bundle-output.ts). */
  bundle: string | undefined;
};

/** Parses --similarity: a number in (0, 1]. */
function parseThreshold(value: string | undefined): number {
  const t = value === undefined || !/^\d*\.?\d+$/.test(value) ? Number.NaN : Number(value);
  if (!(t > 0 && t <= 1)) throw new UsageError(`--similarity must be a number in (0, 1], e.g. 0.8 (got ${JSON.stringify(value ?? '')})`);
  return t;
}

/** Parses --containment: a number in [0, 1] (0 turns the search off). */
function parseContainment(value: string | undefined): number {
  const t = value === undefined || !/^\d*\.?\d+$/.test(value) ? Number.NaN : Number(value);
  if (!(t >= 0 && t <= 1)) throw new UsageError(`--containment must be a number in [0, 1], e.g. 0.9, or 0 to turn it off (got ${JSON.stringify(value ?? '')})`);
  return t;
}

/** `simsift scan`'s options (cli-options.ts reads them). */
const SCAN_OPTIONS = {
  k: { type: 'string' },
  similarity: { type: 'string' },
  containment: { type: 'string' },
  groups: { type: 'string' },
  out: { type: 'string' },
  threads: { type: 'string' },
  pairs: { type: 'string' },
  exclude: { type: 'string', multiple: true },
  'min-size': { type: 'string' },
  'max-size': { type: 'string' },
  cache: { type: 'string' },
  reread: { type: 'boolean' },
  bundle: { type: 'string' },
  ...SETTINGS_OPTIONS,
  ...KEEP_OPTIONS,
} as const;

/** A size option (--min-size, --max-size), or null when not given. */
function sizeOption(name: string, value: string | undefined): number | null {
  if (value === undefined) return null;
  if (value === '') throw new UsageError(`--${name} needs a value`);
  const size = parseSize(value);
  if (size === null) throw new UsageError(`--${name} must be a size such as 1000, 10k, 5MB or 2MiB (got ${JSON.stringify(value)})`);
  return size;
}

/** A file name option (--out, --pairs): absent, or not empty. */
function fileOption(name: string, value: string | undefined): string | undefined {
  if (value === '') throw new UsageError(`--${name} needs a file name`);
  return value;
}

/** `simsift scan`'s arguments, or 'help' for --help; a UsageError for a bad one. */
export function parseScanArgs(argv: string[]): ScanArgs | 'help' {
  const parsed = parseOptions(argv, SCAN_OPTIONS, USAGE);
  if (parsed === 'help') return 'help';
  const { values, positionals } = parsed;
  const groups = values.groups ?? 'reference';
  if (groups !== 'reference' && groups !== 'components') throw new UsageError(`--groups must be reference or components (got ${JSON.stringify(groups)})`);
  const exclude = values.exclude ?? [];
  if (exclude.includes('')) throw new UsageError('--exclude needs a value');
  for (const pattern of exclude) {
    const problem = patternProblem(pattern.trim());
    if (problem) throw new UsageError(`--exclude ${JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 60)}...` : pattern)} ${problem}`);
  }
  const settings = settingsFromOptions(values);
  const cache = fileOption('cache', values.cache);
  if (cache !== undefined && values.pairs !== undefined) throw new UsageError('--cache and --pairs do not go together: pairs found elsewhere stand for the whole search');
  if (cache !== undefined && settings.weights === 'tfidf') throw new UsageError('--cache does not work with --weights tfidf: every fingerprint depends on every file\'s words, so every file is read anyway');
  if (values.reread && cache === undefined) throw new UsageError('--reread goes with --cache FILE (it reads every file and rewrites the cache)');
  return {
    dir: oneOperand(positionals, 'DIR', USAGE),
    k: values.k === undefined ? undefined : parseK(values.k),
    threshold: values.similarity === undefined ? DEFAULT_SIMILARITY_THRESHOLD : parseThreshold(values.similarity),
    containment: values.containment === undefined ? CONTAINMENT_DEFAULT_SETTING : parseContainment(values.containment),
    grouping: groups,
    out: fileOption('out', values.out),
    threads: parseThreads(values.threads),
    settings,
    pairs: fileOption('pairs', values.pairs),
    plan: planFromOptions(values),
    exclusions: { patterns: exclude, extensions: [], minSize: sizeOption('min-size', values['min-size']), maxSize: sizeOption('max-size', values['max-size']) },
    cache,
    reread: values.reread === true,
    bundle: fileOption('bundle', values.bundle),
  };
}

/** The text of `simsift scan --help`. */
export function scanHelp(): string {
  return (
    `${USAGE}\n` +
      `  --k N            candidate pairs: fingerprints at most N bits apart, 0..64 (default ${DEFAULT_K}: the smallest k whose\n` +
      `                   expected recall at Jaccard 0.8-0.9 reaches ${DEFAULT_RECALL}, at any number of files; the summary says\n` +
      `                   when its search is a large share of the scan, and which smaller k is faster)\n` +
      `  --similarity T   a candidate is a near-duplicate when the exact Jaccard of its feature sets is >= T (default ${DEFAULT_SIMILARITY_THRESHOLD})\n` +
      `  --containment T  list "A is contained in B" (an excerpt in its whole, a document inside a longer one) when\n` +
      `                   |A ∩ B| / |A| of the feature sets is >= T and the Jaccard is below --similarity: CSV rows with\n` +
      `                   relation "contained" (default 0, off: it costs more than the rest of a\n` +
      `                   scan allows a default; ${DEFAULT_CONTAINMENT.threshold} is the usual T)\n` +
      "  --groups G       reference (default: every member verified against its group's reference) or\n" +
      '                   components (connected components; stderr says how many chain)\n' +
      '  --features F     word3 (3-word shingles, default), word1 (words), char5 (5-character n-grams), ...\n' +
      '  --weights W      binary (default), tf, tfidf (document frequencies from DIR)\n' +
      '  --stop-words     drop English stop words\n  --out FILE       write the CSV there instead of stdout\n' +
      `  --threads T      fingerprinting threads, 1..${MAX_THREADS} (default: one per core)\n` +
      '  --pairs FILE     candidate pairs found elsewhere, matched by path: the Parquet of `simsift pairs --out x.parquet`\n' +
      '                   (or any Parquet with path_a, path_b, distance) or `simsift pairs --paths` text; verified and\n' +
      '                   grouped as the scan\'s own search would be, which does not run\n' +
      '  --exclude GLOB   leave out files whose path ends with GLOB (*, **, ?; e.g. "*.log", "drafts/**"); repeatable\n' +
      '  --min-size S     leave out files smaller than S (bytes, or 10k, 5MB, 2MiB); --max-size S: larger than S\n' +
      '  --cache FILE     keep this scan in FILE (outside DIR) and, when FILE holds the last scan of DIR with the same\n' +
      '                   settings, read only the files whose size, modification time, change time or inode changed;\n' +
      '                   the CSV is the same as without it\n' +
      '  --reread         with --cache: read every file anyway (an edit that kept size and times), and rewrite FILE\n' +
      '  --bundle FILE    write the finished scan (settings, fingerprints, sizes and times, verified pairs) for the page\'s\n' +
      '                   "Open a CLI result", which shows it beside the folder without fingerprinting it again\n' +
      KEEP_HELP
  );
}
