// contracts: watchlist monitoring (docs/monitoring.md): the competitor set a watched company is compared against, the
// changes the monitor records, the account's webhook endpoint and the `watchlist.changed` event.
import { z } from 'zod';
import { pageOf, PageQuery } from './pages.js';
import { CompetitorType } from './search.js';

/** A watched company's baseline and every check compare its top this-many competitors. */
export const WATCH_TOP = 25;
/** A score change smaller than this many points is not a change. */
export const SCORE_CHANGE_MIN = 10;
export const CHANGE_KINDS = ['new_competitor', 'dropped', 'type_changed', 'score_changed'] as const;

/** One competitor as the monitor compares it. */
export const WatchedCompetitor = z.strictObject({
  domain: z.string(),
  company: z.string(),
  matchScore: z.number().int(),
  type: CompetitorType,
});
export type WatchedCompetitor = z.infer<typeof WatchedCompetitor>;

export const Change = z.strictObject({
  id: z.string(),
  /** The watched company. */
  domain: z.string(),
  kind: z.enum(CHANGE_KINDS),
  /** As the check found it; for `dropped`, as it was last seen. */
  competitor: WatchedCompetitor,
  /** As it was before (type_changed, score_changed). */
  previous: WatchedCompetitor.optional(),
  detectedAt: z.string(),
});
export type Change = z.infer<typeof Change>;
export type ChangeKind = Change['kind'];
export const ChangesPage = pageOf(Change);
export type ChangesPage = z.infer<typeof ChangesPage>;

/** GET /api/changes: paged, newest first; `domain` narrows to one watched company (and marks its changes seen). */
export const ChangesQuery = z.strictObject({
  ...PageQuery.shape,
  domain: z.string().min(1).max(253).optional(),
  since: z.iso.datetime({ offset: true, error: 'since must be an ISO 8601 date-time' }).optional(),
});
export type ChangesQuery = z.output<typeof ChangesQuery>;

/** PUT /api/webhook-endpoint. */
export const SetWebhookEndpointRequest = z.strictObject({
  url: z.url({ protocol: /^https$/, error: 'url must be an https URL' }).max(2048),
});
export type SetWebhookEndpointRequest = z.infer<typeof SetWebhookEndpointRequest>;

export const WebhookEndpoint = z.strictObject({
  url: z.string(),
  /** The events sent there. */
  events: z.array(z.literal('watchlist.changed')),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** Body of the `watchlist.changed` webhook: one per watched company per monitor run that found changes. */
export const WatchlistChangedEvent = z.strictObject({
  id: z.string(),
  type: z.literal('watchlist.changed'),
  createdAt: z.string(),
  data: z.strictObject({ domain: z.string(), changes: z.array(Change) }),
});
export type WatchlistChangedEvent = z.infer<typeof WatchlistChangedEvent>;
