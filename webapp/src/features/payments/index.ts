/** The payments feature's public entry (token packages bought with Telegram Stars). */
export { usePayments } from './store';
export { usePurchase } from './use-purchase';
