/**
 * The demo server's own calls (docs/api.md, demo mode only): the signed init data that stands
 * in for Telegram's, and the payment of a demo invoice. Through the API client like every call.
 */
import { api, isApiError } from './api-client';
import type { components } from './api-types.gen';
import { devGateHeaders } from './dev-gate-proof';
import { readString, storageKeys, writeString } from './storage';

/** The server wants the development gate's proof before it hands out demo init data. */
export class DevGateRequired extends Error {
  constructor() {
    super('dev_gate_required');
  }
}

/** Fetches demo init data for this browser (the same demo user across reloads). */
export async function fetchDemoInitData(startParam: string | null): Promise<string> {
  const demoId = readString(storageKeys.demoId);
  let body: components['schemas']['DemoInitData'] | undefined;
  try {
    body = await api.get('/dev/init-data', {
      query: { demoId: demoId || undefined, startParam: startParam || undefined },
      auth: false,
      retryOn401: false,
      headers: devGateHeaders(),
    });
  } catch (e) {
    if (isApiError(e) && e.status === 403 && e.code === 'dev_gate_required') throw new DevGateRequired();
    throw e;
  }
  if (!body?.initData) throw new Error('demo init data: empty answer');
  if (body.demoId !== undefined) writeString(storageKeys.demoId, String(body.demoId));
  return body.initData;
}

/**
 * Pays a demo invoice (`$demo{transaction id}`): the demo server runs the same successful-payment
 * code the bot runs. Resolves to how it went, as the client reports it.
 */
export function payDemoInvoice(transactionId: string): Promise<'paid' | 'failed'> {
  return api.post(`/dev/pay/${encodeURIComponent(transactionId)}`).then(
    () => 'paid' as const,
    () => 'failed' as const,
  );
}
