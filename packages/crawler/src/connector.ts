// crawler adapter (secondary): the undici connector for direct connections. The address check lives in the socket's
// own DNS lookup, so the address that is checked is the address that is dialled: DNS rebinding has no second answer to give.
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';

/** Resolves a host name to all its addresses, as `dns.promises.lookup(host, { all: true })` does. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** Whether a connection to `address`, reached through `hostname`, may be made. */
export type AddressPolicy = (address: string, hostname: string) => boolean;

export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true });

/** A connection refused because every address of the host is one we must not reach. */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_RIVALS_BLOCKED_ADDRESS';
  constructor(readonly hostname: string) {
    super(`refused to connect to ${hostname}: not a public address`);
    this.name = 'BlockedAddressError';
  }
}

/** A `lookup` for net/tls.connect that resolves with `resolve` and hands back only the addresses `allow` accepts. */
export function guardedLookup(resolve: Resolver, allow: AddressPolicy): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolve(hostname).then(
      (found) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const candidates = family ? found.filter((a) => a.family === family) : found;
        const allowed = candidates.filter((a) => allow(a.address, hostname));
        const first = allowed[0];
        if (!first) {
          const error = candidates.length > 0 ? new BlockedAddressError(hostname) : notFound(hostname);
          callback(error, options.all ? [] : '', 0);
        } else if (options.all) {
          callback(null, allowed);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, options.all ? [] : '', 0),
    );
  };
}

export interface GuardedConnectorOptions {
  resolve: Resolver;
  allow: AddressPolicy;
  connectTimeoutMs: number;
  tls: TlsOptions;
  /** Told the address of every connection made (after it passed `allow`). */
  onConnected?: (hostname: string, address: string) => void;
}

export interface TlsOptions {
  rejectUnauthorized?: boolean;
  ca?: string | Buffer | Array<string | Buffer>;
}

/** undici's own connector with the guarded lookup. An IP literal never reaches a lookup (net dials it as is), so it is
 * checked here, before any socket exists. */
export function guardedConnector({ resolve, allow, connectTimeoutMs, tls, onConnected }: GuardedConnectorOptions): buildConnector.connector {
  const connect = buildConnector({ timeout: connectTimeoutMs, lookup: guardedLookup(resolve, allow), ...tls });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && !allow(host, host)) {
      callback(new BlockedAddressError(host), null);
      return;
    }
    connect(options, (...args) => {
      const socket = args[1];
      if (socket?.remoteAddress) onConnected?.(options.hostname, socket.remoteAddress);
      callback(...args);
    });
  };
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
}
