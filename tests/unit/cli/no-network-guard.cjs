// Preloaded into every simsift process of the no-network test (NODE_OPTIONS=--require, which Node also
// applies to worker threads): every way Node's JavaScript can reach the network (sockets, DNS, HTTP,
// fetch, UDP, HTTP/2) records the attempt in $SIMSIFT_NETWORK_LOG and throws instead. Native code
// (DuckDB) does not pass through here: the test watches its system calls with strace as well.
'use strict';
const { appendFileSync } = require('node:fs');
const { isMainThread } = require('node:worker_threads');

const log = process.env.SIMSIFT_NETWORK_LOG;
if (!log) throw new Error('no-network-guard: SIMSIFT_NETWORK_LOG is not set');

function blocked(api) {
  return function blockedNetworkCall(...args) {
    const shown = args.map((a) => (typeof a === 'function' ? 'fn' : JSON.stringify(a) ?? String(a))).join(', ').slice(0, 200);
    appendFileSync(log, `${isMainThread ? 'main' : 'worker'} ${api}(${shown})\n${new Error().stack}\n`);
    throw new Error(`no-network-guard: ${api} blocked`);
  };
}

function guard(target, names, prefix) {
  for (const name of names) if (typeof target[name] === 'function') target[name] = blocked(`${prefix}.${name}`);
}

const DNS = ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname', 'resolveMx', 'resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTxt', 'reverse'];
const dns = require('node:dns');
guard(dns, DNS, 'dns');
guard(dns.promises, DNS, 'dns.promises');
guard(dns.Resolver.prototype, DNS, 'dns.Resolver');
guard(dns.promises.Resolver.prototype, DNS, 'dns.promises.Resolver');

const net = require('node:net');
// Every TCP or IPC connection (http, https, tls, undici's fetch) ends in Socket#connect.
guard(net.Socket.prototype, ['connect'], 'net.Socket');
guard(net, ['connect', 'createConnection'], 'net');
guard(require('node:tls'), ['connect'], 'tls');
guard(require('node:http'), ['request', 'get'], 'http');
guard(require('node:https'), ['request', 'get'], 'https');
guard(require('node:http2'), ['connect'], 'http2');
guard(require('node:dgram'), ['createSocket'], 'dgram');
guard(globalThis, ['fetch', 'WebSocket', 'EventSource'], 'globalThis');
