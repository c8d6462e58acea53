import { KnowledgeBaseEngine } from './packages/engine/src/index.js';
const e = new KnowledgeBaseEngine();
const show = async (t: string, want: string[]) => {
  const r = await e.research({ domain: t, limit: 100, signal: new AbortController().signal });
  const pos = want.map((w) => { const i = r.competitors.findIndex((c) => c.domain === w); return `${w}@${i + 1}${i >= 0 ? `(${r.competitors[i]!.matchScore} ${r.competitors[i]!.evidence.signals.join('/')})` : ''}`; });
  console.log(t, '\n  ', pos.join('\n   '));
  const ti = e.model.resolve(t)!; console.log('   target cats', e.model.entity(ti).categories.map((c) => e.model.index.categories[c]!.id).join(','), 'out:', e.model.outgoing[ti]!.map((x) => e.model.entity(x.other).domain + ':' + x.kind[0] + x.strength).join(' '));
};
await show('booking.com', ['tripadvisor.com', 'trivago.com', 'kayak.com', 'priceline.com']);
await show('airbnb.com', ['tripadvisor.com', 'agoda.com', 'sonder.com']);
await show('okta.com', ['onelogin.com', 'ibm.com']);
await show('crowdstrike.com', ['broadcom.com', 'bitdefender.com', 'eset.com']);
await show('openai.com', ['google.com', 'meta.com', 'perplexity.ai']);
await show('coursera.org', ['linkedin.com', 'khanacademy.org']);
await show('intercom.com', ['drift.com', 'crisp.chat', 'tidio.com', 'livechat.com', 'hubspot.com', 'olark.com']);
