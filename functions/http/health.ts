// primary adapter: GET /api/health, no key. Says the function runs, and probes the parts its environment names (none
// in AWS, where it touches no dependency; the local engines locally): 503 degraded with the failing ones.
import { config } from '../shared/config.js';
import { httpRoute } from '../shared/http.js';

/** A part is up when its endpoint answers HTTP at all, whatever the status. */
const answers = async (url: string) => {
  try {
    await (await fetch(url, { signal: AbortSignal.timeout(2000) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
};

export const handler = httpRoute({
  auth: false,
  handler: async () => {
    const probes = config.healthProbes;
    const up = await Promise.all(probes.map((p) => answers(p.url)));
    const failing = probes.filter((_, i) => !up[i]).map((p) => p.name);
    if (failing.length) return { statusCode: 503, body: { status: 'degraded', version: config.version, failing } };
    return { statusCode: 200, body: { status: 'ok', version: config.version } };
  },
});
