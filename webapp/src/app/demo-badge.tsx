import { IconBack } from '../components/ui';
import { useT } from '../i18n';
import { pressDemoBack, useDemoUi } from '../lib/telegram';
import styles from './demo-badge.module.css';

/**
 * Demo mode only: a "DEMO" badge, and an on-screen stand-in for Telegram's native back button
 * (which a plain browser does not have) shown whenever the app asks for it.
 */
export function DemoBadge() {
  const t = useT();
  const backVisible = useDemoUi((s) => s.backVisible);
  return (
    <>
      <div className={styles.badge} data-testid="demo-badge">
        {t('common.demo')}
      </div>
      {backVisible && (
        <button type="button" className={styles.back} data-testid="demo-back" aria-label={t('app.demoBack')} onClick={pressDemoBack}>
          <IconBack size={20} />
        </button>
      )}
    </>
  );
}
