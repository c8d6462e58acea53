// A job's webhook URL checked where it leads, when the job is created, with the delivery's own address guard: IP
// literals and names of private, loopback, link-local and metadata addresses are refused; a public one passes; a name
// that does not resolve yet passes (the delivery checks it again). DNS answers come from a fake resolver.
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl } from '@rivals/crawler';

const answers: Record<string, LookupAddress[]> = {
  'hooks.example.com': [{ address: '93.184.215.14', family: 4 }],
  'rebind.example.com': [{ address: '169.254.169.254', family: 4 }],
  'mixed.example.com': [{ address: '10.1.2.3', family: 4 }],
  'v6.example.com': [{ address: 'fd00::1', family: 6 }],
};
const resolve = async (host: string) => {
  const found = answers[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found;
};

describe('checkWebhookUrl', () => {
  it.each([
    ['https://127.0.0.1/', /private, loopback/],
    ['https://169.254.169.254/', /private, loopback/],
    ['https://[::1]/x', /private, loopback/],
    ['https://[::ffff:127.0.0.1]/', /private, loopback/],
    ['https://10.0.0.7/', /private, loopback/],
    ['https://localhost/', /not a public host name/],
    ['https://svc.internal/', /not a public host name/],
    ['https://rebind.example.com/hook', /resolves to a private/],
    ['https://mixed.example.com/hook', /resolves to a private/],
    ['https://v6.example.com/hook', /resolves to a private/],
    ['http://hooks.example.com/hook', /https/],
    ['not a url', /not a URL/],
  ])('refuses %s', async (url, problem) => {
    expect(await checkWebhookUrl(url, resolve)).toMatch(problem);
  });

  it.each(['https://hooks.example.com/rivals', 'https://93.184.215.14/hook', 'https://not-yet-resolving.example.org/hook'])('lets %s through', async (url) => {
    expect(await checkWebhookUrl(url, resolve)).toBeNull();
  });
});
