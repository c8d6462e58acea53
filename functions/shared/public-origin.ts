// composition root: the origin users reach this service at, for absolute links (share links). PUBLIC_BASE_URL when the
// deployment sets it; else the address of the request itself: the host the viewer used on CloudFront (the header the
// distribution's `/api/*` function adds, infra/web.ts PUBLIC_HOST_HEADER), or the Host the local runtime was called on.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { config } from './config.js';

const PUBLIC_HOST_HEADER = 'x-rivals-public-host';
/** A host name or address with an optional port, nothing else: the value goes into links users open. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

type RequestLike = Pick<APIGatewayProxyEvent, 'headers'> & { requestContext?: { stage?: string } | null };

export function publicOrigin(event: RequestLike): string | undefined {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, '');
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v?.trim()]));
  const host = [headers[PUBLIC_HOST_HEADER], headers.host].find((h) => h && HOST.test(h));
  if (!host) return undefined;
  const proto = headers['x-forwarded-proto']?.split(',')[0]?.trim() === 'https' ? 'https' : 'http';
  // Called on API Gateway's own address, the stage is part of every path.
  const stage = /\.execute-api\.[a-z0-9-]+\.amazonaws\.com(?::\d+)?$/i.test(host) && event.requestContext?.stage ? `/${event.requestContext.stage}` : '';
  return `${proto}://${host.toLowerCase()}${stage}`;
}
