/**
 * Telegram's own controls beyond the back button: the bottom (main) and secondary buttons,
 * popups and the closing confirmation. Screens declare what they want with hooks; whoever
 * declared last owns a button, and a screen that unmounts hides what it showed.
 *
 * When the client cannot draw a control (old versions, or the SDK refused), `native` is false
 * and the screen renders its in-page fallback instead.
 */
import {
  closingBehavior,
  isPopupOpened,
  mainButton,
  openPopup,
  secondaryButton,
  type OpenPopupOptions,
} from '@telegram-apps/sdk-react';
import { useEffect, useRef, useSyncExternalStore } from 'react';

import { bridgeCall, bridgeLater } from './bridge-queue';
import { versionAtLeast } from './launch';

export interface BottomButtonSpec {
  text: string;
  onClick: () => void;
  /** Default true. */
  enabled?: boolean;
  /** Shows the button's spinner (a request runs); clicks are ignored meanwhile. */
  loading?: boolean;
  /** Default true; false hides the button while the screen keeps it. */
  visible?: boolean;
}

interface Colors {
  button: string;
  buttonText: string;
}

let colors: Colors | null = null;
const owners = { main: 0, secondary: 0 };
let nextOwner = 1;
const handlers: { main: (() => void) | null; secondary: (() => void) | null } = { main: null, secondary: null };
const mounted = { main: false, secondary: false };
const lastSpec: { main: BottomButtonSpec | null; secondary: BottomButtonSpec | null } = { main: null, secondary: null };

/**
 * Mounts the main button once the SDK is initialised, in the bridge queue (see
 * bridge-queue.ts); the secondary button (Bot API 7.10+) and the closing behaviour mount on
 * first use. Every client draws the main button; the screens learn at once which buttons are
 * native (their first render chooses between the native button and the in-page one), and
 * their calls queue behind the mounts.
 */
export function mountNativeUi(): void {
  mounted.main = true;
  mounted.secondary = versionAtLeast('7.10');
  bridgeLater(() => {
    try {
      mainButton.mount();
      mainButton.onClick(() => handlers.main?.());
    } catch (e) {
      console.warn('main button unavailable', e);
    }
  });
}

/**
 * A function that mounts something in the bridge queue the first time it is called; a client
 * without it logs a warning and the app goes on.
 */
function mountOnFirstUse(what: string, mount: () => void): { ensure: () => void; started: () => boolean } {
  let done = false;
  return {
    started: () => done,
    ensure: () => {
      if (done) return;
      done = true;
      bridgeCall(() => {
        try {
          mount();
        } catch (e) {
          console.warn(`${what} unavailable`, e);
        }
      });
    },
  };
}

const secondary = mountOnFirstUse('secondary button', () => {
  secondaryButton.mount();
  secondaryButton.onClick(() => handlers.secondary?.());
});

const closing = mountOnFirstUse('closing behaviour', () => {
  if (closingBehavior.mount.isAvailable()) closingBehavior.mount();
});

/** The fill and text colour of our buttons (contrast-checked), also used for the native ones. */
export function setButtonColors(next: Colors): void {
  colors = next;
  for (const kind of ['main', 'secondary'] as const) if (lastSpec[kind]) push(kind, lastSpec[kind]);
}

export function nativeButtons(): { main: boolean; secondary: boolean } {
  return { ...mounted };
}

type Rgb = `#${string}`;

/**
 * Whether Telegram's main button is shown now: the tab bar yields to it, so only one bar sits
 * at the bottom (issue 32, point 7).
 */
let mainShown = false;
const mainListeners = new Set<() => void>();

function setMainShown(v: boolean): void {
  if (v === mainShown) return;
  mainShown = v;
  mainListeners.forEach((l) => l());
}

/** Re-renders when Telegram's main button shows or hides. */
export function useMainButtonShown(): boolean {
  return useSyncExternalStore(
    (l) => {
      mainListeners.add(l);
      return () => mainListeners.delete(l);
    },
    () => mainShown,
    () => false,
  );
}

const lastText = { main: '', secondary: '' };

function push(kind: 'main' | 'secondary', spec: BottomButtonSpec | null): void {
  lastSpec[kind] = spec;
  if (kind === 'secondary') {
    // Never shown yet: nothing to hide.
    if (!secondary.started() && spec === null) return;
    secondary.ensure();
  }
  const visible = spec !== null && spec.visible !== false;
  if (kind === 'main') setMainShown(visible);
  // A hidden button keeps its last text: the SDK refuses an empty one.
  if (spec?.text) lastText[kind] = spec.text;
  const params = {
    isVisible: visible,
    text: spec?.text || lastText[kind] || '…',
    isEnabled: spec ? spec.enabled !== false : false,
    isLoaderVisible: spec?.loading === true,
    hasShineEffect: false,
    ...(colors && kind === 'main' ? { backgroundColor: colors.button as Rgb, textColor: colors.buttonText as Rgb } : {}),
  };
  bridgeCall(() => {
    try {
      if (kind === 'main') mainButton.setParams(params);
      else secondaryButton.setParams({ ...params, position: 'top' });
    } catch (e) {
      console.warn(`${kind} button update failed`, e);
    }
  });
}

function useBottomButton(kind: 'main' | 'secondary', spec: BottomButtonSpec | null): boolean {
  const native = mounted[kind];
  const owner = useRef(0);
  const click = useRef<(() => void) | null>(null);
  click.current = spec && spec.enabled !== false && !spec.loading ? spec.onClick : null;
  useEffect(() => {
    if (!native) return;
    owner.current = nextOwner++;
    owners[kind] = owner.current;
    handlers[kind] = () => click.current?.();
    return () => {
      if (owners[kind] !== owner.current) return;
      owners[kind] = 0;
      handlers[kind] = null;
      push(kind, null);
    };
  }, [native, kind]);
  const key = spec ? `${spec.text}|${spec.enabled !== false}|${spec.loading === true}|${spec.visible !== false}` : '';
  useEffect(() => {
    if (!native || owners[kind] !== owner.current) return;
    push(kind, spec);
  }, [native, kind, key]);
  return native;
}

/** Telegram's bottom button carries the screen's primary action; false: render it in the page. */
export function useMainButton(spec: BottomButtonSpec | null): boolean {
  return useBottomButton('main', spec);
}

/** The secondary bottom button (clients ≥ 7.10), drawn above the main one. */
export function useSecondaryButton(spec: BottomButtonSpec | null): boolean {
  return useBottomButton('secondary', spec);
}

/**
 * A native confirmation: resolves true when the button `okId` was pressed. Falls back to the
 * browser's `confirm` where the client has no popups.
 */
export async function confirmPopup(options: { title?: string; message: string; ok: string; cancel: string; destructive?: boolean }): Promise<boolean> {
  const params: OpenPopupOptions = {
    title: options.title,
    message: options.message,
    buttons: [
      { id: 'ok', type: options.destructive ? 'destructive' : 'default', text: options.ok },
      { id: 'cancel', type: 'cancel' },
    ],
  };
  try {
    if (openPopup.isAvailable() && !isPopupOpened()) return (await openPopup(params)) === 'ok';
  } catch (e) {
    console.warn('popup failed', e);
  }
  return window.confirm(options.message);
}

/**
 * A native popup offering `choices` and a Close button; resolves with the chosen id, or null
 * when it was closed. Without popups, the browser's `confirm` picks the first choice.
 */
export async function choosePopup(title: string, message: string, choices: Array<{ id: string; text: string }>): Promise<string | null> {
  try {
    if (openPopup.isAvailable() && !isPopupOpened()) {
      const id = await openPopup({
        title,
        message,
        buttons: [...choices.slice(0, 2).map((c) => ({ id: c.id, type: 'default' as const, text: c.text })), { id: 'close', type: 'close' as const }],
      });
      return id && id !== 'close' ? id : null;
    }
  } catch (e) {
    console.warn('popup failed', e);
  }
  return window.confirm(`${title}\n${message}`) ? (choices[0]?.id ?? null) : null;
}

/** A native notice with one OK button; resolves when it is closed. */
export async function alertPopup(message: string, title?: string): Promise<void> {
  try {
    if (openPopup.isAvailable() && !isPopupOpened()) {
      await openPopup({ title, message, buttons: [{ id: 'ok', type: 'ok' }] });
      return;
    }
  } catch (e) {
    console.warn('popup failed', e);
  }
  window.alert(message);
}

let closingHolds = 0;

/**
 * While `active` (a payment or a case open in flight), closing the mini app asks first.
 * Several holders may overlap; the confirmation lifts when the last one lets go.
 */
export function useClosingConfirmation(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    holdClosing();
    return releaseClosing;
  }, [active]);
}

export function holdClosing(): void {
  closingHolds += 1;
  if (closingHolds === 1) {
    closing.ensure();
    bridgeCall(() => {
      try {
        closingBehavior.enableConfirmation.ifAvailable();
      } catch {
        // Old clients close without asking.
      }
    });
  }
}

export function releaseClosing(): void {
  closingHolds = Math.max(0, closingHolds - 1);
  if (closingHolds === 0) {
    if (!closing.started()) return;
    bridgeCall(() => {
      try {
        closingBehavior.disableConfirmation.ifAvailable();
      } catch {
        // Nothing to lift.
      }
    });
  }
}
