/**
 * What the Telegram client told us at launch (platform, version, start parameter, the player's
 * language and id, the colour scheme), and the questions asked of it (`versionAtLeast`,
 * `isSupportedPlatform`). lib/telegram.ts fills it when it reads the launch parameters; the
 * stores, the screens and the native UI (lib/native-ui.ts) read it. It imports no SDK.
 */
import type { Theme } from './settings';

export interface LaunchInfo {
  platform: string;
  version: string;
  startParam: string | null;
  languageCode: string | null;
  userId: number | null;
  colorScheme: Theme | null;
  demo: boolean;
}

/** What the bootstrap found; read by the stores and screens (version checks, platform). */
export let launch: LaunchInfo = {
  platform: 'unknown',
  version: '0',
  startParam: null,
  languageCode: null,
  userId: null,
  colorScheme: null,
  demo: false,
};

/** Replaces what is known of the launch (lib/telegram.ts, once it has read the parameters). */
export function setLaunch(info: LaunchInfo): void {
  launch = info;
}

/** Compares dotted versions: `versionAtLeast('6.9')` for the Stars purchase, etc. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d !== 0) return d > 0 ? 1 : -1;
  }
  return 0;
}

export function versionAtLeast(min: string): boolean {
  return compareVersions(launch.version, min) >= 0;
}

/** Spec section 1: platform web or unknown (or no launch parameters) means "not in Telegram". */
export function isSupportedPlatform(platform: string): boolean {
  return platform !== 'web' && platform !== 'unknown' && platform !== '';
}

/** The browser's preferred language (`navigator.languages[0]`, else `navigator.language`). */
export function browserLanguage(): string | null {
  if (typeof navigator === 'undefined') return null;
  return navigator.languages?.[0] || navigator.language || null;
}
