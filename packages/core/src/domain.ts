// core: a company domain as the API accepts it. Registrable form from the public suffix list, private section included.
import { parse } from 'tldts';
import { ApiError } from './errors.js';

const invalid = (input: string) =>
  new ApiError(
    'invalid_domain',
    `"${input.slice(0, 100)}" is not a public company domain (IP addresses, localhost and internal names are refused).`,
    { details: [{ field: 'domain', problem: 'not a public hostname' }] },
  );

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/** Hostname of a domain or URL given by a person, lower case, or null when there is none. */
export function hostnameOf(input: string): string | null {
  const text = input.trim().toLowerCase();
  if (!text || /\s/.test(text)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//.test(text) ? text : `http://${text}`;
  try {
    const host = new URL(withScheme).hostname.replace(/\.$/, '');
    return host || null;
  } catch {
    return null;
  }
}

/**
 * The registrable domain of a domain or URL ("https://www.stripe.com/x" -> "stripe.com", "shop.myshopify.com" stays whole).
 * Throws invalid_domain for IP literals, localhost, names under no public suffix and anything that is not a hostname.
 */
export function normalizeDomain(input: string): string {
  const host = hostnameOf(input);
  if (!host || !HOSTNAME.test(host)) throw invalid(input);
  const parsed = parse(host, { allowPrivateDomains: true });
  if (parsed.isIp || !parsed.domain || !(parsed.isIcann || parsed.isPrivate)) throw invalid(input);
  return parsed.domain;
}

/** Registrable domain of a host known to be valid (knowledge-base and crawler data); the host itself otherwise. */
export function registrableDomain(host: string): string {
  const parsed = parse(host, { allowPrivateDomains: true });
  return parsed.domain ?? host;
}
