import type { Theme } from './settings';

/**
 * Telegram-like palettes: the demo mock sends them as theme params, and `styles/theme.css`
 * uses the same colours as fallbacks when the chosen theme differs from Telegram's.
 */
export const palettes: Record<Theme, Record<string, `#${string}`>> = {
  dark: {
    bg_color: '#17212b',
    secondary_bg_color: '#0e1621',
    section_bg_color: '#1e2c3a',
    header_bg_color: '#17212b',
    bottom_bar_bg_color: '#17212b',
    text_color: '#f5f5f5',
    hint_color: '#708499',
    subtitle_text_color: '#708499',
    link_color: '#6ab3f3',
    accent_text_color: '#6ab2f2',
    section_header_text_color: '#6ab3f3',
    button_color: '#5288c1',
    button_text_color: '#ffffff',
    destructive_text_color: '#ec3942',
    section_separator_color: '#0e1621',
  },
  light: {
    bg_color: '#ffffff',
    secondary_bg_color: '#efeff4',
    section_bg_color: '#ffffff',
    header_bg_color: '#ffffff',
    bottom_bar_bg_color: '#ffffff',
    text_color: '#000000',
    hint_color: '#8e8e93',
    subtitle_text_color: '#8e8e93',
    link_color: '#2481cc',
    accent_text_color: '#2481cc',
    section_header_text_color: '#6d6d72',
    button_color: '#2481cc',
    button_text_color: '#ffffff',
    destructive_text_color: '#ff3b30',
    section_separator_color: '#c8c7cc',
  },
};
