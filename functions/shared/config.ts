// composition root: configuration from the environment, read once. Names match infra's and the local runtime's.
import { DEFAULT_DISCOVERIES_PER_HOUR, DEFAULT_RATE_LIMITS, type RateLimits } from '@rivals/core';

const intFromEnv = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
};

export const config = {
  get tableName(): string {
    const name = process.env.TABLE_NAME;
    if (!name) throw new Error('TABLE_NAME is not set');
    return name;
  },
  get researchDeadlineMs(): number {
    return intFromEnv('RESEARCH_DEADLINE_MS', 25_000);
  },
  get freeCredits(): number {
    return intFromEnv('FREE_CREDITS', 10);
  },
  get uploadsBucket(): string {
    return process.env.UPLOADS_BUCKET ?? '';
  },
  get bulkQueueUrl(): string {
    return process.env.BULK_QUEUE_URL ?? '';
  },
  get webhookQueueUrl(): string {
    return process.env.WEBHOOK_QUEUE_URL ?? '';
  },
  /** The aggregate queue; unset, a settled search is counted by the next GET /api/my-companies instead. */
  get aggregateQueueUrl(): string {
    return process.env.AGGREGATE_QUEUE_URL ?? '';
  },
  /** The monitor queue (watched companies of a run, docs/monitoring.md). */
  get monitorQueueUrl(): string {
    return process.env.MONITOR_QUEUE_URL ?? '';
  },
  /** Hours between scheduled monitor runs (CDK context monitorEveryHours). */
  get monitorEveryHours(): number {
    return intFromEnv('MONITOR_EVERY_HOURS', 24);
  },
  /** New discovered companies one account may add an hour (searches and bulk alike); 0 adds none. */
  get discoveriesPerHour(): number {
    return intFromEnv('DISCOVERIES_PER_HOUR', DEFAULT_DISCOVERIES_PER_HOUR);
  },
  /**
   * The re-drive of lost work (packages/core/src/bulk/redrive.ts): work with no sign of life for REDRIVE_AFTER_SECONDS
   * (default 180) is sent again, the window doubling after each re-send, at most REDRIVE_MAX times (default 5).
   */
  get redrive(): { afterMs: number; maxRedrives: number } {
    return { afterMs: intFromEnv('REDRIVE_AFTER_SECONDS', 180) * 1000, maxRedrives: intFromEnv('REDRIVE_MAX', 5) };
  },
  /** A running bulk domain whose attempt started this long ago is taken over by the next delivery (its worker died). */
  get bulkTakeoverAfterMs(): number {
    return intFromEnv('BULK_TAKEOVER_AFTER_SECONDS', 120) * 1000;
  },
  /** Dead-letter queues the sweeper drains (comma-separated URLs); none when unset. */
  get deadLetterQueueUrls(): string[] {
    return (process.env.DEAD_LETTER_QUEUE_URLS ?? '').split(',').filter(Boolean);
  },
  /** Most unique domains a bulk job may hold. */
  get bulkMaxDomains(): number {
    return intFromEnv('BULK_MAX_DOMAINS', 10_000);
  },
  /** The dashboard's origin, to make share links absolute; they are relative (/share/<token>) without it. */
  get publicBaseUrl(): string | undefined {
    return process.env.PUBLIC_BASE_URL || undefined;
  },
  /** Token buckets per key and per IP (docs/api.md "Limits"); 0 turns one off. */
  get rateLimits(): RateLimits {
    const { key, ip } = DEFAULT_RATE_LIMITS;
    return {
      key: { perSecond: intFromEnv('RATE_LIMIT_KEY_PER_SECOND', key.perSecond), burst: intFromEnv('RATE_LIMIT_KEY_BURST', key.burst) },
      ip: { perSecond: intFromEnv('RATE_LIMIT_IP_PER_SECOND', ip.perSecond), burst: intFromEnv('RATE_LIMIT_IP_BURST', ip.burst) },
    };
  },
  /**
   * Parts health checks, as `name=url,...` in HEALTH_PROBE_URLS. The local runtime names its engines; AWS names none,
   * so there health touches no dependency.
   */
  get healthProbes(): { name: string; url: string }[] {
    return (process.env.HEALTH_PROBE_URLS ?? '')
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const [name = '', url = ''] = pair.split(/=(.*)/s);
        return { name, url };
      });
  },
  /** The REST API and stage whose authorizer cache a key revocation empties (unset: nothing caches, nothing to empty). */
  get authorizerCacheStage(): { restApiId: string; stageName: string } | null {
    const restApiId = process.env.REST_API_ID;
    const stageName = process.env.API_STAGE;
    return restApiId && stageName ? { restApiId, stageName } : null;
  },
  /**
   * The key webhook signing secrets are sealed with: a Secrets Manager secret (AWS: WEBHOOK_SECRET_KEY_ARN, set on the
   * two functions that seal and open), or the key itself, base64 (the local runtime: WEBHOOK_SECRET_KEY). Null: stored
   * as they are.
   */
  get webhookSecretKey(): { secretArn: string } | { base64: string } | null {
    if (process.env.WEBHOOK_SECRET_KEY_ARN) return { secretArn: process.env.WEBHOOK_SECRET_KEY_ARN };
    if (process.env.WEBHOOK_SECRET_KEY) return { base64: process.env.WEBHOOK_SECRET_KEY };
    return null;
  },
  get version(): string {
    return process.env.SERVICE_VERSION ?? '0.1.0';
  },
};
