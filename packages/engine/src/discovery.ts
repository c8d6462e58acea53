// engine: what of a homepage may be learned. A page is kept as a discovered company only when it is a real company's
// own page (not parked, for sale, a placeholder, "coming soon", login-only or an error), does not claim a known
// company's identity, and is placed by its visible text counted once per term (keyword stuffing buys nothing).
import type { HomepageProfile } from '@rivals/core';

/** Why a page is never stored; null when it may be. */
export type JunkReason = 'for-sale' | 'parked' | 'placeholder' | 'coming-soon' | 'login-only' | 'error-page';

const JUNK: [JunkReason, RegExp][] = [
  ['for-sale', /\b(domain|this site|website)\b[^.]{0,40}\b(is|may be) for sale\b|\bbuy this domain\b|\bdomain (name )?for sale\b|\bmake an offer\b|\bdomain zu verkaufen\b|\bdomaine? (est )?à vendre\b|\bdominio (está )?en venta\b|\bthis domain is available\b/i],
  ['parked', /\bparked (free|domain|page)\b|\bdomain parking\b|\bthis domain (is|has been) (parked|registered)\b|\bparkingcrew\b|\bsedo\b|\bbodis\b|\bhugedomains\b/i],
  ['placeholder', /\bwelcome to nginx\b|\bapache2? (ubuntu|debian)? ?default page\b|^it works!?$|\bdefault (web )?page\b|\btest page for\b|\bsite not configured\b|\bfuture home of\b|\bindex of \/|\bplaceholder\b|\bwordpress › (setup|installation)\b|\bjust another wordpress site\b/i],
  ['coming-soon', /\bcoming soon\b|\bunder construction\b|\blaunching soon\b|\bwe('| a)re launching\b|\bdemnächst\b|\bin (kürze|bau)\b|\bbientôt\b|\ben construction\b|\bpróximamente\b|\ben construcción\b|\bin costruzione\b|\bprossimamente\b/i],
  ['error-page', /^(\d{3}\b|error\b)|\b(404|403|500|502|503)\b.{0,20}\b(not found|forbidden|error|unavailable)\b|\bpage not found\b|\baccess denied\b|\bservice unavailable\b|\bbad gateway\b|\baccount (has been )?suspended\b|\bsite (is )?(temporarily )?unavailable\b/i],
];

/** A page that only asks to sign in: its title or first heading is a login prompt and nothing else describes it. */
const LOGIN = /^(sign ?in|log ?in|login|member login|anmelden|einloggen|connexion|se connecter|iniciar sesi[oó]n|acceder|accedi|inloggen)\b/i;

/** Why a homepage must never be stored as a company; null when it may be. */
export function junkReason(page: HomepageProfile): JunkReason | null {
  const head = [page.title, page.description, page.organizationName ?? '', ...page.headings.slice(0, 3)].join(' \n ');
  for (const [reason, pattern] of JUNK) {
    if (reason === 'error-page' ? pattern.test(page.title.trim()) || pattern.test(page.headings[0] ?? '') : pattern.test(head)) return reason;
  }
  const first = page.headings[0] ?? '';
  if ((LOGIN.test(page.title.trim()) || LOGIN.test(first)) && page.description.trim().length < 40) return 'login-only';
  return null;
}

/** Lower case letters and digits only: how names are compared when a page claims an identity. */
export const flatName = (text: string) => text.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]/g, '');

/**
 * The text a page is placed and compared by when it is learned: title, description, headings and keywords, each
 * field's words once (a title of "CRM CRM CRM" says CRM once). Hidden headings never reach the profile (extract.ts).
 */
export function learnedText(page: HomepageProfile): string {
  const once = (text: string) => [...new Set(text.toLowerCase().split(/\s+/).filter(Boolean))].join(' ');
  return [once(page.title), once(page.description), ...page.headings.map(once), once(page.keywords.join(' '))].join(' ');
}

/** A description short enough to show and to store: the page's own, cut at a word within 300 characters. */
export function shortDescription(page: HomepageProfile): string {
  const text = (page.description || page.headings[0] || page.title).replace(/\s+/g, ' ').trim();
  if (text.length <= 300) return text;
  const cut = text.slice(0, 300);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 200))}…`;
}

/** At most this many terms are kept of a page (the rarest count most; see engine.ts). */
export const MAX_LEARNED_TERMS = 60;
