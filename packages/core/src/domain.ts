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

/** Names no company site lives under although the public suffix list has them: Tor (`onion`, RFC 7686) and the
 * infrastructure domain `arpa` (`home.arpa` is home networks, RFC 8375; the rest is reverse DNS and protocol names);
 * and cloud metadata services reachable by name (`metadata.goog` sits under a real public suffix). Special-use names
 * outside the list (`localhost`, `.local`, `.test`, `.internal`, `.alt`...) have no public suffix and fail anyway. */
const NEVER_PUBLIC = ['onion', 'arpa', 'metadata.google.internal', 'metadata.goog', 'instance-data.ec2.internal'];

/**
 * Whether a lower-case host name (no trailing dot) may name a public site: a syntactically valid name under a public
 * suffix (private section included), not an IP literal, not `localhost`, not under a suffix outside the list
 * (`.internal`, `.local`, `cluster.local`, `.lan`, `.test`), not Tor, `arpa` or a cloud metadata name. The one notion
 * of a public hostname: the API's domain check and the crawler's check of every URL it requests both use it.
 */
export function isPublicHostname(host: string): boolean {
  if (!HOSTNAME.test(host)) return false;
  if (NEVER_PUBLIC.some((name) => host === name || host.endsWith(`.${name}`))) return false;
  const parsed = parse(host, { allowPrivateDomains: true });
  return !parsed.isIp && parsed.domain !== null && (parsed.isIcann === true || parsed.isPrivate === true);
}

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
 * Throws invalid_domain for anything `isPublicHostname` refuses (IP literals, localhost, internal and special-use names).
 */
export function normalizeDomain(input: string): string {
  const host = hostnameOf(input);
  if (!host || !isPublicHostname(host)) throw invalid(input);
  return registrableDomain(host);
}

/** Registrable domain of a host known to be valid (knowledge-base and crawler data); the host itself otherwise. */
export function registrableDomain(host: string): string {
  const parsed = parse(host, { allowPrivateDomains: true });
  return parsed.domain ?? host;
}
