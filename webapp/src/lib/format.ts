/** Numbers and dates in the ru-RU locale (spec section 9), whatever the interface language. */
const tokens2 = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 0, maximumFractionDigits: 2 });
const tokens0 = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0 });
const dateFmt = new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' });
const dateTimeFmt = new Intl.DateTimeFormat('ru-RU', {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const timeFmt = new Intl.DateTimeFormat('ru-RU', { hour: '2-digit', minute: '2-digit' });

function toNumber(value: number | string | null | undefined): number {
  const n = typeof value === 'string' ? Number(value.replace(',', '.')) : Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** A token amount with up to 2 decimals: 12345.5 → "12 345,5". Accepts numeric strings. */
export function formatTokens(value: number | string | null | undefined): string {
  return tokens2.format(toNumber(value));
}

/** A token price without decimals (the store's case cards). */
export function formatTokensInt(value: number | string | null | undefined): string {
  return tokens0.format(toNumber(value));
}

function toDate(value: string | number | Date): Date {
  return value instanceof Date ? value : new Date(value);
}

/** "22.11.2026" */
export function formatDate(value: string | number | Date): string {
  return dateFmt.format(toDate(value));
}

/** "22.11.2026, 10:15" */
export function formatDateTime(value: string | number | Date): string {
  return dateTimeFmt.format(toDate(value));
}

/** "10:15" */
export function formatTime(value: string | number | Date): string {
  return timeFmt.format(toDate(value));
}
