/**
 * Telegram calls the screens of issue 7 need beyond `lib/telegram.ts`: sharing, clipboard,
 * invoices and the device's performance class. Each answers "did it work" instead of throwing,
 * so a screen can fall back (copy the id, show a toast) when the client cannot do it.
 */
import {
  copyTextToClipboard,
  on,
  openInvoice,
  retrieveAndroidDeviceData,
  shareMessage,
  shareURL,
  swipeBehavior,
} from '@telegram-apps/sdk-react';

import { bridgeCall } from './bridge-queue';
import { versionAtLeast } from './launch';
import { ensureSwipeBehavior } from './telegram';

/** Opens Telegram's share dialog for a prepared inline message (clients >= 8.0). */
export async function sharePreparedMessage(id: string): Promise<boolean> {
  if (!versionAtLeast('8.0')) return false;
  try {
    const r = shareMessage.ifAvailable(id);
    if (!r[0]) return false;
    await r[1];
    return true;
  } catch {
    return false;
  }
}

/** Telegram's share link (t.me/share/url) on clients >= 6.0; false when unavailable. */
export function shareLink(url: string, text?: string): boolean {
  if (!versionAtLeast('6.0')) return false;
  try {
    const r = shareURL.ifAvailable(url, text);
    return r[0];
  } catch {
    return false;
  }
}

/** Copies text through Telegram's clipboard bridge or the browser's; true when it went through. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await copyTextToClipboard(text);
    return true;
  } catch {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  }
}

/** Opens a Stars invoice link; resolves with the status it closed with. */
export async function openInvoiceLink(url: string): Promise<string> {
  const r = openInvoice.ifAvailable(url, 'url');
  if (!r[0]) throw new Error('invoice unavailable');
  return String(await r[1]);
}

/** Listens to the client's invoice_closed event; returns the unsubscribe. */
export function onInvoiceClosed(listener: (status: string) => void): () => void {
  try {
    return on('invoice_closed', (payload) => listener(String(payload.status)));
  } catch {
    return () => undefined;
  }
}

/** Telegram for Android reports a performance class in its user agent; LOW gets fewer effects. */
export function isLowEndDevice(): boolean {
  try {
    if (retrieveAndroidDeviceData().performanceClass === 'LOW') return true;
  } catch {
    // Not Android, or no class reported.
  }
  if (typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches) return true;
  return false;
}

/** Stops a vertical swipe from closing the app (the roulette is a vertical strip). */
export function setVerticalSwipes(enabled: boolean): void {
  ensureSwipeBehavior();
  bridgeCall(() => {
    try {
      if (enabled) swipeBehavior.enableVertical.ifAvailable();
      else swipeBehavior.disableVertical.ifAvailable();
    } catch {
      // Older clients have no swipe behaviour.
    }
  });
}
