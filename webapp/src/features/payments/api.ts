import { api, ApiError, unwrapData } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';

type Schemas = components['schemas'];

/** A token package for Stars (`GET /payments/packages`). */
export type TokenPack = Schemas['Package'];

export async function fetchPackages(): Promise<TokenPack[]> {
  const list = unwrapData<TokenPack[]>(await api.get<unknown>('/payments/packages'));
  return Array.isArray(list) ? list : [];
}

/** Spec section 3: invoice_link and transaction_id at the top level or under `data`. */
export async function createInvoiceLink(
  packId: string,
  telegramId: number,
  initData: string,
): Promise<{ invoiceLink: string; transactionId: string | null }> {
  const body = await api.post<(Partial<Schemas['InvoiceCreated']> & { data?: Partial<Schemas['InvoiceCreated']> }) | undefined>('/payments/create-invoice-link', {
    pack_id: packId,
    telegram_id: telegramId,
    init_data: initData,
  });
  const src = (body?.invoice_link ? body : body?.data) ?? {};
  const link = src.invoice_link;
  if (typeof link !== 'string' || !link) {
    throw new ApiError(200, 'bad_response', 'Failed to create invoice: Invalid response format', body);
  }
  const tx = src.transaction_id;
  return { invoiceLink: link, transactionId: typeof tx === 'string' && tx ? tx : null };
}

export async function fetchTransactionStatus(id: string, signal?: AbortSignal): Promise<string> {
  const body = await api.get<Schemas['PaymentStatus'] | undefined>(`/payments/transaction-status/${encodeURIComponent(id)}`, { signal });
  return String(body?.status ?? '');
}
