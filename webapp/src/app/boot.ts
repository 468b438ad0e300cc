import { create } from 'zustand';

import { MAINTENANCE_POLL_MS, useGates } from '../features/gates';
import { useSession } from '../features/session';
import { saveLanguage, useSettings } from '../features/settings';
import { configureApiClient } from '../lib/api-client';
import { firstScreenPainted } from '../lib/first-draw';
import { startPath } from '../lib/deep-link';
import { isSupportedPlatform, launch } from '../lib/launch';
import { readString, writeString } from '../lib/storage';

export type BootPhase = 'starting' | 'ready' | 'failed';

interface BootState {
  phase: BootPhase;
  setPhase: (phase: BootPhase) => void;
}

export const useBoot = create<BootState>((set) => ({
  phase: 'starting',
  setPhase: (phase) => set({ phase }),
}));

const DEEP_LINK_HANDLED_KEY = 'deepLinkHandled';

/** How long a first open's sign-in waits for onboarding's first paint. */
const FIRST_PAINT_WAIT_MS = 3000;

/** Remembers the start-up deep link once per Telegram launch (not again on every reload). */
function rememberDeepLink(): void {
  const path = startPath(launch.startParam);
  if (!path || readString(DEEP_LINK_HANDLED_KEY, 'session') === launch.startParam) return;
  writeString(DEEP_LINK_HANDLED_KEY, launch.startParam, 'session');
  useGates.getState().setPendingPath(path);
}

let maintenanceTimer: ReturnType<typeof setInterval> | null = null;

/** Polls `/status` every 60 s (spec section 4); never on web/unknown platforms. */
function startMaintenancePolling(): void {
  if (!isSupportedPlatform(launch.platform) || maintenanceTimer) return;
  const gates = useGates.getState();
  void gates.checkMaintenance();
  maintenanceTimer = setInterval(() => void useGates.getState().checkMaintenance(), MAINTENANCE_POLL_MS);
}

/** Signs in (or reuses the stored token when it belongs to this Telegram user). */
async function startSession(): Promise<void> {
  const session = useSession.getState();
  if (session.token) {
    const result = await session.loadProfile();
    if (result.ok && (launch.userId === null || result.user.telegramId === launch.userId)) return;
  }
  await useSession.getState().signIn();
}

/**
 * The server's idea of the player's language. A real player's profile carries their choice or
 * their Telegram language; a demo player's carries the demo init data's stand-in "ru", so in
 * demo mode the browser's language (already applied from the launch) wins and the server is
 * told it, so its own texts (errors, support's reply) follow.
 */
function adoptLanguage(serverLanguage: unknown): void {
  const settings = useSettings.getState();
  if (!launch.demo) {
    settings.adoptServerLanguage(serverLanguage);
    return;
  }
  if (!settings.languageChosen && serverLanguage !== settings.language) {
    saveLanguage(settings.language).catch((e: unknown) => console.warn('demo language not saved', e));
  }
}

/** After the development gate let the player in: sign in, then the agreement. */
export async function finishBootAfterGate(): Promise<void> {
  try {
    const session = useSession.getState();
    const reused = session.token !== null && (await session.loadProfile()).ok;
    if (!reused && !(await useSession.getState().signIn())) throw new Error('sign-in refused');
    adoptLanguage(useSession.getState().user?.language);
    useBoot.getState().setPhase('ready');
  } catch (e) {
    console.warn('sign-in after the gate failed', e);
    useBoot.getState().setPhase('failed');
    return;
  }
  await useGates.getState().checkAgreement();
}

/**
 * Runs once the environment is known: settings from Telegram, maintenance polling, deep link,
 * session, agreement. Failures end in phase 'failed' (or the session's `expired` flag).
 */
export async function boot(): Promise<void> {
  useSettings.getState().adoptTelegram({ languageCode: launch.languageCode, colorScheme: launch.colorScheme });
  configureApiClient({
    onError: (error) => {
      // A write refused for maintenance: show the maintenance screen at once, not in 60 s.
      if (error.code === 'maintenance') useGates.getState().setMaintenance(true);
      if (error.code === 'init_data_expired') useSession.setState({ expired: true });
      // The development gate's proof expired or was refused: the gate shows again.
      if (error.code === 'dev_gate_required') useGates.getState().requireDevGate();
    },
  });
  startMaintenancePolling();
  rememberDeepLink();
  // With a stored agreement the app renders at once; the server's answer follows.
  if (useGates.getState().termsAccepted) useGates.setState({ agreement: 'agreed' });
  // Behind the development gate, sign-in waits for the password (the login screen signs in).
  const gates = useGates.getState();
  if (gates.config?.devGate && !gates.isAuthenticated) return;
  // A first open (no session, no agreement stored) draws onboarding now, not after sign-in and
  // the agreement check: two round trips off the first screen (issue 32, point 9). Sign-in then
  // waits for that screen's first paint (at most FIRST_PAINT_WAIT_MS): on a slow phone its
  // answers' work would otherwise share the main thread with the first render.
  if (!useSession.getState().token && gates.agreement === 'unknown') {
    useGates.setState({ agreement: 'not_agreed', agreementProvisional: true });
    await Promise.race([firstScreenPainted, new Promise((resolve) => setTimeout(resolve, FIRST_PAINT_WAIT_MS))]);
  }
  try {
    await startSession();
    adoptLanguage(useSession.getState().user?.language);
    useBoot.getState().setPhase('ready');
    await useGates.getState().checkAgreement();
  } catch (e) {
    console.warn('sign-in failed', e);
    useBoot.getState().setPhase('failed');
  }
}
