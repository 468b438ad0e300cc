/**
 * The demo environment (server `/config` says `demo: true`, no Telegram client around): the
 * Telegram client is mocked with the server's demo init data, and the mock plays the client's
 * part (theme, viewport, links, invoices, prepared messages; the demo frame draws its header,
 * bottom buttons and popups). lib/telegram.ts decides whether we run here (`detectEnvironment`);
 * the SDK wrapper is the same in both.
 */
import { emitEvent, mockTelegramEnv } from '@telegram-apps/sdk-react';

import { payDemoInvoice } from './demo-api';
import { frameInsets, frameReceive } from './demo-frame-state';
import type { Theme } from './settings';
import { readString, writeString } from './storage';
import { palettes } from './theme-palettes';

const DEMO_START_KEY = 'fragbox.demoStartParam';

/** The theme the mocked client reports; it follows the player's chosen theme. */
let demoTheme: Theme = 'dark';

/** Every method the app sent to the (mocked) client; e2e tests read `window.__tgEvents`. */
function recordEvent(name: string, params: unknown): void {
  const w = window as unknown as { __tgEvents?: Array<[string, unknown]> };
  (w.__tgEvents ??= []).push([name, params]);
}

function themeParamsFor(theme: Theme): Record<string, string> {
  return palettes[theme];
}

/**
 * `?startapp=...` on the demo URL stands in for Telegram's start parameter (deep-link tests),
 * kept for the tab like Telegram keeps launch parameters across reloads.
 */
export function demoStartParam(): string | null {
  return new URLSearchParams(window.location.search).get('startapp') ?? readString(DEMO_START_KEY, 'session');
}

/** Keeps the demo's start parameter for the tab (once the server said it runs the demo). */
export function keepDemoStartParam(startParam: string | null): void {
  if (startParam) writeString(DEMO_START_KEY, startParam, 'session');
}

/** Mocks the client (see `mockDemoEnvironment`) with the server's init data, reporting `theme`. */
export function startDemoEnvironment(initData: string, theme: Theme, startParam: string | null): void {
  demoTheme = theme;
  mockDemoEnvironment(withSignatureField(initData), theme, startParam);
}

/** In demo mode the "client" follows the chosen theme, like a player switching Telegram's. */
export function demoClientFollowsTheme(theme: Theme): void {
  if (demoTheme === theme) return;
  demoTheme = theme;
  emitEvent('theme_changed', { theme_params: themeParamsFor(theme) as never });
}

/**
 * Mocks the Telegram environment with the demo init data: an Android client on Bot API 8.0, so
 * maintenance polling, sharing and purchases take their real code paths. The mock answers the
 * requests the SDK makes (theme, viewport, safe areas, fullscreen) and plays the client's part
 * for links, invoices and prepared messages.
 */
function mockDemoEnvironment(initData: string, theme: Theme, startParam: string | null): void {
  const noInsets = { top: 0, bottom: 0, left: 0, right: 0 };
  const params = new URLSearchParams([
    ['tgWebAppData', initData],
    ['tgWebAppVersion', '8.0'],
    ['tgWebAppPlatform', 'android'],
    ['tgWebAppThemeParams', JSON.stringify(themeParamsFor(theme))],
  ]);
  if (startParam) params.set('tgWebAppStartParam', startParam);
  mockTelegramEnv({
    launchParams: params,
    resetPostMessage: true,
    onEvent: (event) => {
      const [name, payload] = event as [string, Record<string, unknown> | undefined];
      recordEvent(name, payload);
      // The demo frame draws Telegram's header, bottom buttons and popups from these events.
      if (frameReceive(name, payload)) return;
      switch (name) {
        case 'web_app_request_theme':
          emitEvent('theme_changed', { theme_params: themeParamsFor(demoTheme) as never });
          break;
        case 'web_app_request_viewport':
          emitEvent('viewport_changed', {
            height: window.innerHeight,
            width: window.innerWidth,
            is_expanded: true,
            is_state_stable: true,
          });
          break;
        case 'web_app_request_safe_area':
          emitEvent('safe_area_changed', noInsets);
          break;
        case 'web_app_request_content_safe_area':
          // Like a fullscreen client's own controls, the frame's header and buttons are the
          // content safe area.
          // The frame draws its header from the start, fullscreen or not: reporting it at once
          // keeps the page from jumping when fullscreen arrives.
          emitEvent('content_safe_area_changed', frameInsets());
          break;
        case 'web_app_request_fullscreen':
          emitEvent('fullscreen_changed', { is_fullscreen: true });
          break;
        case 'web_app_exit_fullscreen':
          emitEvent('fullscreen_changed', { is_fullscreen: false });
          break;
        case 'web_app_open_link':
          window.open(String(payload?.url ?? ''), '_blank', 'noopener');
          break;
        case 'web_app_open_tg_link':
          window.open(`https://t.me${String(payload?.path_full ?? '')}`, '_blank', 'noopener');
          break;
        case 'web_app_open_invoice': {
          // Demo invoices are `$demo{transaction id}`: the demo server pays them through the same
          // successful-payment code the bot runs, then the client reports how it went.
          const slug = String(payload?.slug ?? '');
          const transactionId = slug.startsWith('demo') ? slug.slice('demo'.length) : '';
          void payDemoInvoice(transactionId).then((status) => emitEvent('invoice_closed', { slug, status }));
          break;
        }
        case 'web_app_send_prepared_message':
          setTimeout(() => emitEvent('prepared_message_sent'), 300);
          break;
        default:
          break;
      }
    },
  });
}

/**
 * The SDK's launch-parameter schema requires the `signature` field that current Telegram
 * clients send. If the demo init data lacks it, the mock gets a placeholder so the SDK accepts
 * it; sign-in still sends the server's original string (its hash covers only what it signed).
 */
function withSignatureField(initData: string): string {
  const params = new URLSearchParams(initData);
  if (params.has('signature')) return initData;
  params.set('signature', 'demo');
  return params.toString();
}
