import { emitEvent } from '@telegram-apps/sdk-react';
import { useEffect } from 'react';

import { IconBack } from '../components/ui';
import { useT } from '../i18n';
import { frameInsets, useDemoFrame, type FrameButton } from '../lib/demo-frame-state';
import styles from './demo-frame.module.css';

/**
 * Demo mode only: the part of Telegram's client a plain browser lacks, drawn OUTSIDE the page
 * from the very events the app sends (`web_app_setup_back_button`, `web_app_setup_main_button`,
 * `web_app_setup_secondary_button`, `web_app_open_popup`, the colour calls). The header and the
 * bottom bar are reported to the app as the content safe area, exactly as a fullscreen Telegram
 * reports its own controls, so the page lays itself out around them and nothing covers it.
 */
function closePopup(id: string | undefined): void {
  useDemoFrame.setState({ popup: null });
  emitEvent('popup_closed', id === undefined ? {} : { button_id: id });
}

export function DemoFrame() {
  const t = useT();
  const s = useDemoFrame();
  const insets = frameInsets(s);

  // The page learns how much room the frame takes, as Telegram reports its controls.
  useEffect(() => {
    emitEvent('content_safe_area_changed', insets);
  }, [insets.top, insets.bottom]);

  const standard: Record<string, string> = { ok: 'OK', close: t('common.close'), cancel: t('common.cancel') };
  return (
    <>
      <header className={styles.header} style={{ background: s.headerColor ?? undefined }} data-testid="tg-header">
        {s.back ? (
          <button type="button" className={styles.back} aria-label={t('common.back')} data-testid="tg-back" onClick={() => emitEvent('back_button_pressed')}>
            <IconBack size={22} />
          </button>
        ) : (
          <span className={styles.backSpace} />
        )}
        <span className={styles.title}>FragBox</span>
        <span className={styles.demo} data-testid="demo-badge">
          {t('common.demo')}
        </span>
      </header>
      {insets.bottom > 0 && (
        <div className={styles.bar} style={{ background: s.bottomBarColor ?? undefined, height: insets.bottom }} data-testid="tg-bottom-bar">
          {s.secondary?.visible && <FrameBtn b={s.secondary} testId="tg-secondary-button" secondary onPress={() => emitEvent('secondary_button_pressed')} />}
          {s.main?.visible && <FrameBtn b={s.main} testId="tg-main-button" onPress={() => emitEvent('main_button_pressed')} />}
        </div>
      )}
      {s.popup && (
        <div className={styles.scrim} role="presentation">
          <div className={styles.popup} role="alertdialog" aria-modal="true" aria-labelledby="tg-popup-text" data-testid="tg-popup">
            {s.popup.title && <p className={styles.popupTitle}>{s.popup.title}</p>}
            <p id="tg-popup-text" className={styles.popupText}>
              {s.popup.message}
            </p>
            <div className={styles.popupButtons}>
              {s.popup.buttons.map((b, i) => (
                <button
                  key={b.id ?? i}
                  type="button"
                  className={`${styles.popupButton} ${b.type === 'destructive' ? styles.destructive : ''}`}
                  data-testid={`tg-popup-${b.id || b.type || i}`}
                  onClick={() => closePopup(b.id)}
                >
                  {b.text ?? standard[b.type ?? 'close'] ?? b.type}
                </button>
              ))}
            </div>
          </div>
        </div>
      )}
    </>
  );
}

function FrameBtn({ b, testId, secondary, onPress }: { b: FrameButton; testId: string; secondary?: boolean; onPress: () => void }) {
  return (
    <button
      type="button"
      className={`${styles.button} ${secondary ? styles.secondary : ''}`}
      style={secondary ? undefined : { background: b.color, color: b.textColor }}
      disabled={!b.active}
      aria-busy={b.progress || undefined}
      data-testid={testId}
      onClick={() => !b.progress && onPress()}
    >
      {b.progress ? <span className={styles.spinner} aria-hidden /> : b.text}
    </button>
  );
}
