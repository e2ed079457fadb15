#!/usr/bin/python3
"""The permuted-table pair search of `simsift pairs` as a Dask job (issue #41).

For each table of the layout (dask/run.ts writes it from SimSift's own block layout), every
fingerprint's key is its bits under the table's key blocks; the rows of all tables are shuffled by
(table, key) across the cluster, and within each (table, key) group the pairs within Hamming distance
k that this table owns are kept: the table whose key blocks are the first the pair agrees on, the same
rule as the in-process index and the SQL, so each pair comes out of one table only. The pairs are
written as `simsift pairs` writes them: `i j distance` (row numbers of the input), sorted, and with
--paths the two paths after tabs, as the input spells them (`simsift fingerprint` escapes them).

Run it through `npm run dask -- FILE ...` (which lays out the tables); with --scheduler it uses that
cluster, else a local cluster of --workers worker processes. Progress is on Dask's dashboard; the
last line on stderr gives each phase's seconds (read, cluster start, key, shuffle, pair, merge, close,
write) and the peak RSS of the client and of each worker.
"""
import argparse
import json
import resource
import sys
import time

import numpy as np
import pandas as pd


def read_text(path, with_paths):
    """Rows of `simsift fingerprint` output (`HEX  path`, `-  path`) or 16 hex digits a line: (i, fp signed int64[, path])."""
    rows, fps, paths = [], [], []
    with open(path, 'rb') as f:
        for i, raw in enumerate(f):
            line = raw.rstrip(b'\r\n').decode('utf-8', 'surrogateescape')
            head = line.lstrip(' \t')
            mark, _, rest = head.partition(' ') if ' ' in head else head.partition('\t')
            if mark == '-' or mark == '':
                continue  # no fingerprint: the row keeps its number
            if len(mark) != 16:
                raise SystemExit(f'simsift dask: {path}:{i + 1}: expected 16 hex digits, got {line[:40]!r}')
            rows.append(i)
            fps.append(int(mark, 16))
            paths.append(rest.strip(' \t'))
    frame = pd.DataFrame({'i': np.array(rows, dtype=np.int64), 'fp': np.array(fps, dtype=np.uint64).view(np.int64)})
    if with_paths:
        frame['path'] = paths
    return frame


def read_input(path, with_paths, dd):
    """The fingerprints as a Dask dataframe: Parquet (the export's fingerprint column) where a reader is installed, else text."""
    with open(path, 'rb') as f:
        parquet = f.read(4) == b'PAR1'
    if parquet:
        try:
            frame = dd.read_parquet(path, columns=['fingerprint', 'path'] if with_paths else ['fingerprint']).compute()
        except ImportError as error:
            raise SystemExit(f'simsift dask: {path} is Parquet and this Python has no Parquet reader ({error}): '
                             'install pyarrow, or give the text form (simsift fingerprint DIR > fp.txt)')
        frame = frame.reset_index(drop=True)
        frame['i'] = np.arange(len(frame), dtype=np.int64)
        frame = frame[frame['fingerprint'].notna()]
        frame['fp'] = frame['fingerprint'].astype(np.uint64).view(np.int64)
        return frame[['i', 'fp'] + (['path'] if with_paths else [])]
    return read_text(path, with_paths)


def popcount64(x):
    """Bits set in each uint64 (numpy 1.24 has no bitwise_count)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


def keyed(part, layout):
    """One row per fingerprint per table: (t, key, i, fp), the key the fingerprint's bits under the table's key blocks."""
    fp = part['fp'].to_numpy().view(np.uint64)
    out = []
    for t, table in enumerate(layout['tables']):
        key = fp & np.uint64(int(table['key']))
        out.append(pd.DataFrame({'t': np.full(len(fp), t, dtype=np.int32), 'key': key.view(np.int64), 'i': part['i'].to_numpy(), 'fp': part['fp'].to_numpy()}))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame({'t': [], 'key': [], 'i': [], 'fp': []})


def owned_pairs(group, layout):
    """The pairs within k inside one shuffled partition's (t, key) groups that their table owns: i < j, distance, no duplicates across tables."""
    pairs = group.merge(group, on=['t', 'key'], suffixes=('_a', '_b'))
    pairs = pairs[pairs['i_a'] < pairs['i_b']]
    x = pairs['fp_a'].to_numpy().view(np.uint64) ^ pairs['fp_b'].to_numpy().view(np.uint64)
    distance = popcount64(x)
    keep = distance <= layout['k']
    if layout['blocks'] > 0:
        # The blocks the pair agrees on; the table owns it when every must-differ block differs.
        agree = np.zeros(len(x), dtype=np.int64)
        for j, mask in enumerate(layout['blockMasks']):
            agree |= ((x & np.uint64(int(mask))) == 0).astype(np.int64) << j
        must_differ = np.array([t['mustDiffer'] for t in layout['tables']], dtype=np.int64)[pairs['t'].to_numpy()]
        keep &= (agree & must_differ) == 0
    return pd.DataFrame({'i': pairs['i_a'].to_numpy()[keep], 'j': pairs['i_b'].to_numpy()[keep], 'distance': distance[keep]})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('file')
    parser.add_argument('--layout', required=True, help='the tables, as dask/run.ts writes them')
    parser.add_argument('--scheduler', help='a Dask scheduler address (tcp://host:8786); default a local cluster')
    parser.add_argument('--workers', type=int, default=2, help='worker processes of the local cluster')
    parser.add_argument('--out', help='write the pairs here instead of stdout')
    parser.add_argument('--paths', action='store_true', help='append the two paths: i j distance<TAB>path_a<TAB>path_b')
    args = parser.parse_args()

    import dask.dataframe as dd
    from distributed import Client, LocalCluster, wait

    # Each phase is computed whole before the next starts (persist + wait), so its time is its own:
    # what the log's last line reports, and what `npm run bench -- dask` reads (the shuffle's share).
    seconds = {}
    clock = Clock(seconds)
    with open(args.layout) as f:
        layout = json.load(f)
    frame = read_input(args.file, args.paths, dd)
    clock.lap('read')
    # A local cluster listens on this machine only; its dashboard on a free port (two jobs can run at once).
    cluster = None if args.scheduler else LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=':0')
    with Client(args.scheduler or cluster) as client:
        clock.lap('cluster')
        print(f'simsift dask: {len(frame)} fingerprints, k={layout["k"]}, {len(layout["tables"])} tables, '
              f'dashboard {client.dashboard_link}', file=sys.stderr)
        parts = max(2, 2 * len(client.scheduler_info()['workers']))
        fingerprints = dd.from_pandas(frame[['i', 'fp']], npartitions=parts)
        meta = pd.DataFrame({'t': pd.Series(dtype=np.int32), 'key': pd.Series(dtype=np.int64), 'i': pd.Series(dtype=np.int64), 'fp': pd.Series(dtype=np.int64)})
        rows = fingerprints.map_partitions(keyed, layout, meta=meta).persist()
        wait(rows)
        clock.lap('key')
        # The shuffle: every (table, key) group lands whole in one partition.
        shuffled = rows.shuffle(on=['t', 'key'], npartitions=parts * len(layout['tables']) if len(layout['tables']) < 64 else parts * 64).persist()
        wait(shuffled)
        del rows
        clock.lap('shuffle')
        pair_meta = pd.DataFrame({'i': pd.Series(dtype=np.int64), 'j': pd.Series(dtype=np.int64), 'distance': pd.Series(dtype=np.int64)})
        pairs = shuffled.map_partitions(owned_pairs, layout, meta=pair_meta).persist()
        wait(pairs)
        del shuffled
        clock.lap('pair')
        pairs = pairs.compute()
        if pairs.duplicated(['i', 'j']).any():
            raise SystemExit('simsift dask: a pair came out of two tables (the layout and the ownership rule disagree)')
        pairs = pairs.sort_values(['i', 'j'], kind='stable')
        clock.lap('merge')
        worker_rss = worker_peak_rss_kb(client)
    if cluster is not None:
        cluster.close()
    clock.lap('close')
    write_pairs(pairs, frame, args)
    clock.lap('write')
    timings = ' '.join(f'{name}_seconds={value:.3f}' for name, value in seconds.items())
    print(f'simsift dask: pairs={len(pairs)} {timings} client_maxrss_kb={peak_rss_kb()} '
          f'worker_maxrss_kb={",".join(str(kb) for kb in worker_rss)}', file=sys.stderr)


class Clock:
    """Seconds since the last lap, recorded under each phase's name."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.last = time.perf_counter()

    def lap(self, name):
        now = time.perf_counter()
        self.seconds[name] = now - self.last
        self.last = now


def peak_rss_kb():
    """This process's peak resident set (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def worker_peak_rss_kb(client):
    """Each worker process's own peak resident set, asked of the workers (they are not this process's to measure)."""
    return sorted(client.run(peak_rss_kb).values())


def write_pairs(pairs, frame, args):
    """The pairs as `simsift pairs` writes them: `i j distance`, with --paths the two paths after tabs."""
    out = open(args.out, 'w', newline='\n') if args.out else sys.stdout
    try:
        if args.paths:
            path_of = dict(zip(frame['i'].tolist(), frame['path'].tolist()))
            for i, j, d in pairs.itertuples(index=False):
                out.write(f'{i} {j} {d}\t{path_of[i]}\t{path_of[j]}\n')
        else:
            for i, j, d in pairs.itertuples(index=False):
                out.write(f'{i} {j} {d}\n')
    finally:
        if out is not sys.stdout:
            out.close()


if __name__ == '__main__':
    main()
