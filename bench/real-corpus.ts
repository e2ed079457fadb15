/**
 * The real-text evaluation corpus: documents nobody on the project wrote (the Linux kernel's
 * documentation from Debian's `linux-doc`, and the licence, README and changelog files of a pinned
 * list of npm packages read from node_modules), plus near-duplicates planted with the generated
 * quality corpus' edit operations, written as a folder of files under bench/.data/real/.
 *
 * `npx tsx bench/real-corpus.ts [--rebuild]` builds it alone; `npm run bench -- quality-real` builds it when missing.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { decodeText } from '../src/core/text/decode.ts';
import { Rng } from './quality/prng.ts';
import { applyEdit, editLabel, type Edit } from './quality/edits.ts';
import { joinParagraphs } from './quality/documents.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..');

/** Where the corpus lives: `docs/` is the folder the CLI scans, `manifest.json` says what each file is. */
export const REAL_CORPUS_DIR = join(here, '.data', 'real');
/** Where Debian's linux-doc package puts the kernel's Documentation tree (gzipped .rst and .txt). */
export const LINUX_DOC_ROOT = '/usr/share/doc/linux-doc/Documentation';
/** Bumped whenever the recipe changes, so an old corpus on disk is rebuilt rather than silently reused. */
const RECIPE_VERSION = 2;
const SEED = 20261124;
/** Kernel documents sampled (of about 5,100 .rst/.txt files in linux-doc 6.1); with the npm files about 3,450 base documents. */
const KERNEL_DOCUMENTS = 3300;
/** Base documents that get planted copies; each gets 1-3 copies, so copies of one source also pair with each other. */
const PLANTED_SOURCES = 330;

/**
 * The npm packages whose documents are used, pinned and sorted so the corpus does not change when the
 * dependency tree gains a package. These are the project's installed (direct and transitive)
 * dependencies; a package missing from node_modules is reported and skipped.
 */
export const NPM_PACKAGES: readonly string[] = [
  '@esbuild/linux-x64', '@jridgewell/sourcemap-codec', '@oxc-project/types', '@playwright/test',
  '@rolldown/binding-linux-x64-gnu', '@rolldown/pluginutils', '@standard-schema/spec', '@tanstack/react-virtual',
  '@tanstack/virtual-core', '@types/chai', '@types/deep-eql', '@types/estree', '@types/node', '@types/react',
  '@types/react-dom', '@vitejs/plugin-react', '@vitest/expect', '@vitest/mocker', '@vitest/pretty-format',
  '@vitest/runner', '@vitest/snapshot', '@vitest/spy', '@vitest/utils', 'assertion-error', 'chai', 'comlink',
  'convert-source-map', 'csstype', 'detect-libc', 'diff', 'es-module-lexer', 'esbuild', 'estree-walker',
  'expect-type', 'fake-indexeddb', 'fdir', 'idb', 'lightningcss', 'lightningcss-linux-x64-gnu', 'magic-string',
  'nanoid', 'obug', 'pathe', 'picocolors', 'picomatch', 'playwright', 'playwright-core', 'postcss', 'react',
  'react-dom', 'rolldown', 'scheduler', 'siginfo', 'source-map-js', 'stackback', 'std-env', 'tinybench',
  'tinyexec', 'tinyglobby', 'tinyrainbow', 'tsx', 'typescript', 'undici-types', 'vite', 'vitest',
  'why-is-node-running', 'xxhash-wasm',
];
/** The files of a package that are prose a person wrote: licences, notices, READMEs, changelogs. */
const NPM_DOC_FILE = /^(readme|licen[cs]e|copying|notice|changelog|changes|history|authors|security|thirdpartynoticetext)(\.[a-z]+)?$/i;

/** One file of the corpus. */
export interface RealDocument {
  /** Path under docs/, '/'-separated: what the CLI prints in the CSV. */
  path: string;
  /** Where the text came from: `kernel:<path in Documentation>`, `npm:<package>@<version>/<file>` or `planted`. */
  origin: string;
  /** `base`, or the planted edit: an edit label such as `replace-3%`, `reorder`, `case-whitespace`, `copy`, `renamed-copy`. */
  role: string;
  /** For a planted copy, the index of the base document it was made from; otherwise -1. */
  source: number;
}

export interface RealCorpusManifest {
  recipe: number;
  seed: number;
  /** sha256 over every path and file content, so two runs can tell whether they scored the same corpus. */
  digest: string;
  /** Packages in NPM_PACKAGES that were not installed when the corpus was built. */
  missingPackages: string[];
  documents: RealDocument[];
}

export class MissingLinuxDocError extends Error {}

/** The corpus' manifest if it is on disk and was built by this recipe, else null. */
export function loadRealCorpus(dir = REAL_CORPUS_DIR): RealCorpusManifest | null {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) return null;
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as RealCorpusManifest;
  return manifest.recipe === RECIPE_VERSION && manifest.seed === SEED ? manifest : null;
}

/** A base document before planting: its path under docs/, where it came from, and its bytes. */
interface BaseDocument {
  path: string;
  origin: string;
  bytes: Uint8Array;
}

/** Every gzipped or plain .rst/.txt file under the kernel's Documentation, sorted by path. */
function kernelFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      // linux-doc's tree is symlinked from /usr/share/doc/linux-doc; entries inside are real files and folders.
      if (entry.isDirectory()) walk(full);
      else if (/\.(rst|txt)(\.gz)?$/.test(entry.name)) out.push(relative(root, full).split(sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

/** A sampled, seeded subset of the kernel documentation (the sample is a function of SEED and the file list). */
function kernelDocuments(rng: Rng): BaseDocument[] {
  if (!existsSync(LINUX_DOC_ROOT)) throw new MissingLinuxDocError(`${LINUX_DOC_ROOT} not found`);
  const files = kernelFiles(LINUX_DOC_ROOT);
  if (files.length === 0) throw new MissingLinuxDocError(`no .rst or .txt files under ${LINUX_DOC_ROOT}`);
  const chosen = rng.shuffle(files.slice()).slice(0, KERNEL_DOCUMENTS).sort();
  return chosen.map((file) => {
    const raw = readFileSync(join(LINUX_DOC_ROOT, file));
    const name = file.replace(/\.gz$/, '');
    return { path: `kernel/${name}`, origin: `kernel:${name}`, bytes: file.endsWith('.gz') ? gunzipSync(raw) : raw };
  });
}

/** The prose files of each pinned npm package, as installed in node_modules. */
function npmDocuments(missing: string[]): BaseDocument[] {
  const out: BaseDocument[] = [];
  for (const name of NPM_PACKAGES) {
    const dir = join(repoRoot, 'node_modules', name);
    if (!existsSync(join(dir, 'package.json'))) {
      missing.push(name);
      continue;
    }
    const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version ?? '?';
    const files = readdirSync(dir).filter((f) => NPM_DOC_FILE.test(f) && statSync(join(dir, f)).isFile()).sort();
    for (const file of files) {
      out.push({ path: `npm/${name.replace('/', '__')}/${file}`, origin: `npm:${name}@${version}/${file}`, bytes: readFileSync(join(dir, file)) });
    }
  }
  return out;
}

/**
 * Every real document the corpus samples from, unedited and unsampled: all of the kernel's
 * Documentation .rst/.txt files and the prose files of the pinned npm packages, as raw bytes
 * (for benchmarks that want real text and no planted copies). Throws MissingLinuxDocError without
 * linux-doc, unless `kernel: 'if-installed'` (then the npm files alone).
 */
export function realTextSources(options: { kernel?: 'required' | 'if-installed' } = {}): { path: string; bytes: Uint8Array }[] {
  const npm = () => npmDocuments([]).map((d) => ({ path: d.path, bytes: d.bytes }));
  if (!existsSync(LINUX_DOC_ROOT)) {
    if (options.kernel === 'if-installed') return npm();
    throw new MissingLinuxDocError(`${LINUX_DOC_ROOT} not found`);
  }
  const kernel = kernelFiles(LINUX_DOC_ROOT).map((file) => {
    const raw = readFileSync(join(LINUX_DOC_ROOT, file));
    return { path: `kernel/${file.replace(/\.gz$/, '')}`, bytes: file.endsWith('.gz') ? gunzipSync(raw) : raw };
  });
  return [...kernel, ...npm()];
}

/**
 * Debian documentation packages whose manuals are real text nobody on the project wrote (HTML manuals
 * included: the pipeline applies its HTML rule), for the command-line benchmark's folder of about 170 MB:
 * Python's library reference and tutorials (HTML and reST sources), PostgreSQL's manual (HTML), Git's
 * manual pages (HTML and AsciiDoc text), Perl's POD documentation and manual pages (roff) and the GNU C
 * library's ChangeLogs. Install with
 * `apt-get install python3.11-doc postgresql-doc-15 git-doc perl-doc glibc-doc` (as root).
 */
export const DEBIAN_DOC_PACKAGES: readonly string[] = ['python3.11-doc', 'postgresql-doc-15', 'git-doc', 'perl-doc', 'glibc-doc'];
/** The files of a documentation package that are prose: manuals and sources, gzipped or not (no scripts, styles or images). */
const DEBIAN_DOC_FILE = /(\.(html|txt|rst|pod|md)|\/(README|changelog|ChangeLog|NEWS)[^/]*|\/man\/man\d\/[^/]+)(\.gz)?$/;

/**
 * Every prose file each installed package of `packages` ships (its file list from `dpkg -L`, regular
 * files only, gzipped ones unpacked), named `deb/<package>/<path under /usr/share>`, in path order; the
 * packages that are not installed are returned in `missing`.
 */
export function debianDocSources(packages: readonly string[] = DEBIAN_DOC_PACKAGES): { docs: { path: string; bytes: Uint8Array }[]; missing: string[] } {
  const docs: { path: string; bytes: Uint8Array }[] = [];
  const missing: string[] = [];
  for (const name of packages) {
    let list: string;
    try {
      list = execFileSync('dpkg', ['-L', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch {
      missing.push(name);
      continue;
    }
    const files = list.split('\n').filter((f) => DEBIAN_DOC_FILE.test(f)).sort();
    for (const file of files) {
      const info = lstatSync(file, { throwIfNoEntry: false });
      if (!info?.isFile()) continue;
      const raw = readFileSync(file);
      const path = `deb/${name}/${file.replace(/^\/usr\/share\//, '').replace(/\.gz$/, '')}`;
      docs.push({ path, bytes: file.endsWith('.gz') ? gunzipSync(raw) : raw });
    }
  }
  return { docs, missing };
}

/** The planted changes, drawn uniformly: word edits dominate, with more small fractions since J falls about 3x as fast as the edited share. */
const PLANTED: readonly (Edit | 'copy' | 'renamed-copy')[] = [
  ...(['delete', 'insert', 'replace'] as const).flatMap((kind) =>
    [0.01, 0.02, 0.03, 0.04, 0.05, 0.1, 0.2].map((fraction): Edit => ({ kind, fraction })),
  ),
  { kind: 'reorder' },
  { kind: 'reorder' },
  { kind: 'reorder' },
  { kind: 'case-whitespace' },
  { kind: 'case-whitespace' },
  { kind: 'case-whitespace' },
  'copy',
  'copy',
  'copy',
  'renamed-copy',
  'renamed-copy',
  'renamed-copy',
];

/**
 * File-name prefixes of renamed copies: names a spreadsheet would read as formulas (the CSV export
 * escapes them with an apostrophe) and names that need RFC 4180 quoting, so the scorer's CSV reading is exercised.
 */
const RENAMED_PREFIXES = ['=copy of ', '+', '-', '@', 'final, ', '"draft" ', 'copy of ', 'old '];

/** Builds the corpus into `dir` (replacing docs/ and manifest.json) and returns its manifest. */
export function buildRealCorpus(dir = REAL_CORPUS_DIR): RealCorpusManifest {
  const rng = new Rng(SEED);
  const missingPackages: string[] = [];
  const base = [...kernelDocuments(rng), ...npmDocuments(missingPackages)];
  const documents: RealDocument[] = base.map((d) => ({ path: d.path, origin: d.origin, role: 'base', source: -1 }));
  const contents: Uint8Array[] = base.map((d) => d.bytes);

  // Planted copies are made from decoded text, as a person editing the file would see it.
  const texts = base.map((d) => {
    const decoded = decodeText(d.bytes);
    return decoded.ok && decoded.text.trim() !== '' ? decoded.text : null;
  });
  const candidates = texts.flatMap((t, i) => (t === null ? [] : [i]));
  const sources = rng.shuffle(candidates).slice(0, PLANTED_SOURCES).sort((a, b) => a - b);
  const encoder = new TextEncoder();
  let serial = 0;
  for (const source of sources) {
    const text = texts[source]!;
    const paragraphs = text.split(/\n[ \t]*\n/).filter((p) => p.trim() !== '');
    const copies = rng.int(1, 3);
    for (let c = 0; c < copies; c++) {
      const plan = rng.pick(PLANTED);
      const baseName = base[source]!.path.slice(base[source]!.path.lastIndexOf('/') + 1);
      const id = String(serial++).padStart(4, '0');
      let role: string;
      let path: string;
      let bytes: Uint8Array;
      if (plan === 'copy') {
        role = 'copy';
        path = `planted/copies/${id}/${base[source]!.path}`;
        bytes = contents[source]!;
      } else if (plan === 'renamed-copy') {
        role = 'renamed-copy';
        // At the top of the folder, so the path cell itself starts with the formula character.
        path = `${rng.pick(RENAMED_PREFIXES)}${id} ${baseName}`;
        bytes = contents[source]!;
      } else {
        role = editLabel(plan);
        path = `planted/${role}/${id}-${baseName}`;
        bytes = encoder.encode(joinParagraphs(applyEdit(rng, paragraphs, plan)));
      }
      documents.push({ path, origin: 'planted', role, source });
      contents.push(bytes);
    }
  }

  // The CLI skips hidden names; the recipe never makes one, and this keeps it that way.
  for (const d of documents) {
    if (d.path.split('/').some((part) => part.startsWith('.') || part === 'node_modules')) throw new Error(`hidden path in the corpus: ${d.path}`);
  }
  const docsDir = join(dir, 'docs');
  rmSync(docsDir, { recursive: true, force: true });
  const digest = createHash('sha256');
  documents.forEach((d, i) => {
    const file = join(docsDir, ...d.path.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, contents[i]!);
    digest.update(d.path).update('\0').update(contents[i]!).update('\0');
  });
  const manifest: RealCorpusManifest = { recipe: RECIPE_VERSION, seed: SEED, digest: digest.digest('hex').slice(0, 16), missingPackages, documents };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 1));
  return manifest;
}

/** One line describing the corpus: documents per source and per planted role. */
export function describeRealCorpus(manifest: RealCorpusManifest): string {
  const counts = new Map<string, number>();
  for (const d of manifest.documents) {
    const key = d.role === 'base' ? `base ${d.origin.slice(0, d.origin.indexOf(':'))}` : d.role.replace(/-\d+%$/, '');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, c]) => `${k} ${c}`).join(', ');
}

/** What the ingest corpus of real text holds (see `buildIngestTextCorpus`). */
export interface IngestTextCorpus {
  files: number;
  bytes: number;
  /** Near copies planted (every tenth file a near copy of the one before). */
  near: number;
}

/**
 * Every source text of the real corpus, whole: each kernel document under linux-doc's Documentation
 * (not a sample) and each pinned npm package's prose files, decoded, in path order.
 */
function allSourceTexts(): string[] {
  if (!existsSync(LINUX_DOC_ROOT)) throw new MissingLinuxDocError(`${LINUX_DOC_ROOT} not found`);
  const texts: string[] = [];
  const add = (bytes: Uint8Array) => {
    const decoded = decodeText(bytes);
    if (decoded.ok && decoded.text.trim() !== '') texts.push(decoded.text);
  };
  for (const file of kernelFiles(LINUX_DOC_ROOT)) {
    const raw = readFileSync(join(LINUX_DOC_ROOT, file));
    add(file.endsWith('.gz') ? gunzipSync(raw) : raw);
  }
  for (const d of npmDocuments([])) add(d.bytes);
  return texts;
}

/**
 * The ingest benchmark's corpus of real text, written into `dir` (folders of 1,000 files):
 * `files` files of runs of consecutive lines cut from the real documents (`allSourceTexts`, joined
 * end to end), each about `meanBytes` (0.5x to 1.5x), starting at a seeded random line; every tenth
 * file is a near copy of the one before (about 1 word in 100 replaced by a word from elsewhere).
 * Runs cut from the same place overlap, as texts crawled from one site do. A function of the seed
 * and the installed linux-doc and packages.
 * With `siteFiles` > 0 the corpus is made of "sites" of that many files: each site after the first
 * has its words renamed by its own seeded permutation of the vocabulary (word lengths and line
 * structure kept), so runs overlap only within a site and the pairs grow with the corpus, not as its
 * square (one pool of lines read 1,000,000 times over gives ~10^8 overlapping pairs).
 */
export function buildIngestTextCorpus(dir: string, files: number, meanBytes: number, seed: number, siteFiles = 0): IngestTextCorpus {
  const rng = new Rng(seed);
  const lines = allSourceTexts().flatMap((t) => t.split('\n'));
  const words = lines.flatMap((l) => l.split(/\s+/).filter((w) => w.length > 2)).slice(0, 200_000);
  const encoder = new TextEncoder();
  const vocabulary = siteFiles > 0 ? [...new Set(lines.flatMap((l) => l.match(/[A-Za-z]+/g) ?? []))] : [];
  let siteOf = -1;
  let renamed: Map<string, string> | null = null;
  const rename = (text: string, i: number): string => {
    if (siteFiles <= 0 || i < siteFiles) return text;
    const site = Math.floor(i / siteFiles);
    if (site !== siteOf) {
      const siteRng = new Rng(seed * 1_000_003 + site);
      const shuffled = vocabulary.slice();
      for (let a = shuffled.length - 1; a > 0; a--) {
        const b = siteRng.int(0, a);
        [shuffled[a], shuffled[b]] = [shuffled[b]!, shuffled[a]!];
      }
      renamed = new Map(vocabulary.map((w, a) => [w, shuffled[a]!]));
      siteOf = site;
    }
    return text.replace(/[A-Za-z]+/g, (w) => renamed!.get(w) ?? w);
  };
  rmSync(dir, { recursive: true, force: true });
  let bytes = 0;
  let near = 0;
  let previous = '';
  for (let i = 0; i < files; i++) {
    let text: string;
    if (i % 10 === 9) {
      const parts = previous.split(' ');
      for (let e = Math.max(1, Math.floor(parts.length / 100)); e > 0; e--) parts[rng.int(0, parts.length - 1)] = rng.pick(words);
      text = parts.join(' ');
      near++;
    } else {
      const target = Math.round(meanBytes * (0.5 + rng.next()));
      const out: string[] = [];
      let size = 0;
      for (let l = rng.int(0, lines.length - 1); size < target; l = (l + 1) % lines.length) {
        out.push(lines[l]!);
        size += lines[l]!.length + 1;
      }
      text = out.join('\n');
    }
    const folder = join(dir, `d${String(Math.floor(i / 1000)).padStart(3, '0')}`);
    if (i % 1000 === 0) mkdirSync(folder, { recursive: true });
    // Near copies come from `previous`, already renamed.
    if (i % 10 !== 9) text = rename(text, i);
    const data = encoder.encode(text);
    writeFileSync(join(folder, `doc${String(i).padStart(6, '0')}.txt`), data);
    bytes += data.byteLength;
    previous = text;
  }
  return { files, bytes, near };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!process.argv.includes('--rebuild') && loadRealCorpus()) {
    console.log(`${REAL_CORPUS_DIR} is up to date (--rebuild to build it again)`);
  } else {
    const t0 = performance.now();
    try {
      const m = buildRealCorpus();
      console.log(`${m.documents.length} documents in ${join(REAL_CORPUS_DIR, 'docs')} (digest ${m.digest}, ${((performance.now() - t0) / 1000).toFixed(1)} s): ${describeRealCorpus(m)}`);
    } catch (error) {
      if (!(error instanceof MissingLinuxDocError)) throw error;
      console.error(`${error.message}: the real-text corpus needs the kernel documentation; run: apt-get install linux-doc`);
      process.exitCode = 1;
    }
  }
}

/** The real-text corpus (files of about `meanBytes`), built once under bench/.data/. */
export function realCorpusOnDisk(files: number, meanBytes: number, seed: number, siteFiles = 0): { dir: string; files: number; bytes: number } {
  const dir = join(here, '.data', `ingest-real-${files}-${meanBytes}-${seed}${siteFiles > 0 ? `-sites${siteFiles}` : ''}`);
  const marker = join(dir, 'corpus.json');
  if (existsSync(marker)) return { dir: join(dir, 'corpus'), ...JSON.parse(readFileSync(marker, 'utf8')) };
  rmSync(dir, { recursive: true, force: true });
  const t0 = performance.now();
  const info = buildIngestTextCorpus(join(dir, 'corpus'), files, meanBytes, seed, siteFiles);
  writeFileSync(marker, JSON.stringify({ files: info.files, bytes: info.bytes }));
  console.log(`built ${info.files} files of real text, ${(info.bytes / 1e6).toFixed(0)} MB, ${info.near} near copies, in ${((performance.now() - t0) / 1000).toFixed(1)} s (${dir})`);
  return { dir: join(dir, 'corpus'), files: info.files, bytes: info.bytes };
}
