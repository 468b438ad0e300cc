/**
 * Demo mode only: the state of the Telegram controls the demo frame (app/demo-frame.tsx)
 * draws, fed by the events the app sends to the mocked client.
 */
import { create } from 'zustand';

export interface FrameButton {
  text: string;
  visible: boolean;
  active: boolean;
  progress: boolean;
  color?: string;
  textColor?: string;
}

export interface FramePopup {
  title?: string;
  message: string;
  buttons: Array<{ id?: string; type?: string; text?: string }>;
}

interface FrameState {
  back: boolean;
  main: FrameButton | null;
  secondary: FrameButton | null;
  popup: FramePopup | null;
  headerColor: string | null;
  bottomBarColor: string | null;
}

export const useDemoFrame = create<FrameState>(() => ({
  back: false,
  main: null,
  secondary: null,
  popup: null,
  headerColor: null,
  bottomBarColor: null,
}));

export const FRAME_HEADER_PX = 48;
const BUTTON_PX = 48;
const BAR_PADDING_PX = 8;

/** The insets the frame takes from the page: the header on top, the visible buttons below. */
export function frameInsets(s: Pick<FrameState, 'main' | 'secondary'> = useDemoFrame.getState()) {
  const n = (s.main?.visible ? 1 : 0) + (s.secondary?.visible ? 1 : 0);
  const bottom = n === 0 ? 0 : BAR_PADDING_PX * 2 + n * BUTTON_PX + (n - 1) * BAR_PADDING_PX;
  return { top: FRAME_HEADER_PX, bottom, left: 0, right: 0 };
}

const colorOf = (key: unknown, color: unknown): string | null => {
  if (typeof color === 'string' && color) return color;
  if (key === 'bg_color') return 'var(--c-bg)';
  if (key === 'secondary_bg_color') return 'var(--c-secondary-bg)';
  if (key === 'bottom_bar_bg_color') return 'var(--c-bg)';
  return null;
};

function button(p: Record<string, unknown> | undefined): FrameButton {
  return {
    text: String(p?.text ?? ''),
    visible: p?.is_visible === true,
    active: p?.is_active !== false,
    progress: p?.is_progress_visible === true,
    color: typeof p?.color === 'string' ? p.color : undefined,
    textColor: typeof p?.text_color === 'string' ? p.text_color : undefined,
  };
}

/** Applies one event the app sent; answers true when the frame drew it. */
export function frameReceive(name: string, payload: Record<string, unknown> | undefined): boolean {
  const set = useDemoFrame.setState;
  switch (name) {
    case 'web_app_setup_back_button':
      set({ back: payload?.is_visible === true });
      return true;
    case 'web_app_setup_main_button':
      set({ main: button(payload) });
      return true;
    case 'web_app_setup_secondary_button':
      set({ secondary: button(payload) });
      return true;
    case 'web_app_open_popup':
      set({
        popup: {
          title: typeof payload?.title === 'string' ? payload.title : undefined,
          message: String(payload?.message ?? ''),
          buttons: Array.isArray(payload?.buttons) ? (payload.buttons as FramePopup['buttons']) : [{ id: '', type: 'close' }],
        },
      });
      return true;
    case 'web_app_set_header_color':
      set({ headerColor: colorOf(payload?.color_key, payload?.color) });
      return true;
    case 'web_app_set_bottom_bar_color':
      set({ bottomBarColor: colorOf(payload?.color, payload?.color) });
      return true;
    default:
      return false;
  }
}

