// crawler adapter (secondary): the webhook sender's HTTP POST. It goes through the homepage reader's address guard
// (the check lives in the socket's own DNS lookup), so a webhook URL can never reach our own network or a metadata
// service; redirects are not followed; only https leaves. Tests inject a policy for 127.0.0.1 through `unsafeForTests`,
// a constructor argument no request can set.
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { isPublicHostname, type WebhookTransport } from '@rivals/core';
import { isBlockedAddress } from './address-filter.js';
import { BlockedAddressError, guardedConnector, guardedLookup, systemResolver, type AddressPolicy, type Resolver } from './connector.js';

export interface WebhookTransportOptions {
  timeoutMs?: number;
  /** Test only: accept http and these addresses (e.g. a receiver on 127.0.0.1). */
  unsafeForTests?: { allow: AddressPolicy; allowHttp: true };
}

export function createWebhookTransport(options: WebhookTransportOptions = {}): WebhookTransport {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const allow: AddressPolicy = options.unsafeForTests?.allow ?? ((address) => !isBlockedAddress(address));
  const dispatcher = new Agent({ connect: guardedConnector({ resolve: systemResolver, allow, connectTimeoutMs: 5_000, tls: {} }) });
  return {
    async post(url, body, headers) {
      const target = new URL(url);
      if (target.protocol !== 'https:' && !(options.unsafeForTests?.allowHttp && target.protocol === 'http:')) throw new Error('webhook URLs must be https');
      const response = await request(target, { method: 'POST', body, headers, dispatcher, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
      await response.body.dump();
      return { status: response.statusCode };
    },
  };
}

/** How long the check at job creation waits for DNS; an answer later than this leaves the check to the delivery. */
const CHECK_TIMEOUT_MS = 3_000;

/**
 * A webhook URL checked where it leads now, with the delivery's own guard (the same address filter, through the same
 * guarded DNS lookup): null when it may be used; else the problem. https only; an IP literal must be a public address;
 * a name must be a public host name, and none of its addresses may be private, loopback, link-local or a metadata
 * service. A name that does not resolve (yet) passes: the delivery resolves and checks it again on every attempt.
 */
export async function checkWebhookUrl(url: string, resolve: Resolver = systemResolver): Promise<string | null> {
  const target = URL.canParse(url) ? new URL(url) : null;
  if (!target) return 'not a URL';
  if (target.protocol !== 'https:') return 'not an https URL';
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '').toLowerCase();
  if (isIP(host)) return isBlockedAddress(host) ? 'a private, loopback, link-local or metadata address' : null;
  if (!isPublicHostname(host)) return 'not a public host name';
  const lookup = guardedLookup(resolve, (address) => !isBlockedAddress(address));
  const verdict = new Promise<string | null>((done) =>
    lookup(host, { all: true }, (error) => done(error instanceof BlockedAddressError ? 'its name resolves to a private, loopback, link-local or metadata address' : null)),
  );
  const timeout = new Promise<null>((done) => setTimeout(() => done(null), CHECK_TIMEOUT_MS).unref());
  return Promise.race([verdict, timeout]);
}
