// crawler adapter (secondary): the webhook sender's HTTP POST. It goes through the homepage reader's address guard
// (the check lives in the socket's own DNS lookup), so a webhook URL can never reach our own network or a metadata
// service; redirects are not followed; only https leaves. Tests inject a policy for 127.0.0.1 through `unsafeForTests`,
// a constructor argument no request can set.
import { Agent, request } from 'undici';
import type { WebhookTransport } from '@rivals/core';
import { isBlockedAddress } from './address-filter.js';
import { guardedConnector, systemResolver, type AddressPolicy } from './connector.js';

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
