// crawler adapter (secondary): robots.txt (RFC 9309), asked once per origin within one read, before that origin's
// first page is requested, so a disallowed page is never fetched.
import robotsParserModule from 'robots-parser';
import type { HttpClient } from './http.js';
import { discard, readBody } from './http.js';
import { Skip } from './skip.js';

/** RFC 9309 asks crawlers to read at least 500 KiB of a robots.txt; more than that we ignore. */
const ROBOTS_MAX_BYTES = 512 * 1024;
const ROBOTS_MAX_REDIRECTS = 5;

type Rules = { isAllowed(url: URL): boolean };
type ParsedRobots = { isAllowed(url: string, ua?: string): boolean | undefined; _rules?: unknown };
type ParseRobots = (robotsUrl: string, contents: string) => ParsedRobots;
/** robots-parser is CommonJS typed as an ES default export: Node's and esbuild's interop hand over the function itself,
 * the typings promise a `.default`, so accept either. */
const parseRobots = ((robotsParserModule as unknown as { default?: ParseRobots }).default ?? robotsParserModule) as unknown as ParseRobots;
const ALLOW_ALL: Rules = { isAllowed: () => true };
const DISALLOW_ALL: Rules = { isAllowed: () => false };

export interface RobotsGateOptions {
  /** The product token matched against `User-agent:` lines. */
  token: string;
  timeoutMs: number;
  /** The read's own deadline (and the caller's signal); robots.txt gets the shorter of it and `timeoutMs`. */
  signal: AbortSignal;
}

export class RobotsGate {
  private readonly rulesByOrigin = new Map<string, Promise<Rules>>();

  constructor(
    private readonly client: HttpClient,
    private readonly options: RobotsGateOptions,
  ) {}

  /** Throws Skip('robots-disallowed') when the origin's robots.txt forbids `url` to our token. Network failures reaching
   * robots.txt are thrown as they are: an origin whose robots.txt cannot be reached is treated as unreachable. */
  async check(url: URL): Promise<void> {
    let rules = this.rulesByOrigin.get(url.origin);
    if (!rules) {
      rules = this.fetchRules(url.origin);
      this.rulesByOrigin.set(url.origin, rules);
    }
    if (!(await rules).isAllowed(url)) {
      throw new Skip('robots-disallowed', `${url.href} is disallowed for ${this.options.token} by robots.txt`);
    }
  }

  private async fetchRules(origin: string): Promise<Rules> {
    const robotsUrl = new URL('/robots.txt', origin);
    const deadline = this.options.signal;
    const signal = AbortSignal.any([deadline, AbortSignal.timeout(this.options.timeoutMs)]);
    let fetched;
    try {
      fetched = await this.client.follow(robotsUrl, { accept: 'text/plain, */*;q=0.1', signal, maxRedirects: ROBOTS_MAX_REDIRECTS });
    } catch (error) {
      // RFC 9309 2.3.1.2: a robots.txt lost in redirects may be treated as unavailable, which allows everything.
      if (error instanceof Skip && (error.reason === 'too-many-redirects' || error.reason === 'bad-redirect')) return ALLOW_ALL;
      if (signal.aborted && !deadline.aborted) throw new Skip('unreachable', `${robotsUrl.href} did not answer in time`, true);
      throw error;
    }
    const status = fetched.response.statusCode;
    if (status >= 200 && status < 300) {
      const { bytes } = await readBody(fetched.response, ROBOTS_MAX_BYTES, signal);
      return rulesFor(parseRobots(robotsUrl.href, bytes.toString('utf8')), this.options.token);
    }
    await discard(fetched.response, signal);
    // RFC 9309 2.3.1.4: a server error means the rules are unknown, so assume complete disallow; 4xx (and anything
    // else that is not a 2xx) means there are no rules.
    return status >= 500 ? DISALLOW_ALL : ALLOW_ALL;
  }
}

interface ParsedRule {
  pattern: string;
  allow: boolean;
}

/**
 * The rules of our group, as robots-parser parsed them (groups, user-agent matching, percent-encoding), matched here in
 * linear time. robots-parser's own matcher costs O(rule bytes x path length): 512 KiB of `Disallow: /*a*a*a...` against
 * a long redirect path is seconds of CPU. Precedence as RFC 9309 and robots-parser: the longest matching pattern wins,
 * allow on a tie.
 */
function rulesFor(parsed: ParsedRobots, token: string): Rules {
  const table = parsed._rules;
  if (!table || typeof table !== 'object') return { isAllowed: (url) => parsed.isAllowed(url.href, token) !== false };
  const groups = table as Record<string, ParsedRule[] | undefined>;
  const rules = (groups[token.toLowerCase()] ?? groups['*'] ?? []).filter((r) => typeof r?.pattern === 'string');
  return {
    isAllowed(url) {
      const path = (url.pathname + url.search).replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
      let best: ParsedRule | null = null;
      for (const rule of rules) {
        if (!patternMatches(rule.pattern, path)) continue;
        if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)) best = rule;
      }
      return !best || best.allow;
    },
  };
}

/** A robots.txt path pattern (`*` any run of characters, a final `$` the end of the path) against a path, greedily:
 * each literal piece is found at its leftmost place after the previous one, which is exact for `*`-only patterns. */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const first = pieces[0] ?? '';
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let position = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] ?? '';
    const found = path.indexOf(piece, position);
    if (found < 0) return false;
    position = found + piece.length;
  }
  const last = pieces[pieces.length - 1] ?? '';
  return anchored ? path.length - last.length >= position && path.endsWith(last) : path.indexOf(last, position) >= 0;
}
