import { Button, Modal } from '../../../components/ui';
import { useT } from '../../../i18n';
import styles from './trade-help.module.css';

/** The four-step help for trade errors: trade link, public inventory, Steam Guard, example link. */
export function TradeHelp({ open, onClose, title }: { open: boolean; onClose: () => void; title?: string }) {
  const t = useT();
  return (
    <Modal open={open} onClose={onClose} title={title ?? t('skin.errorHelp')}>
      <ol className={styles.steps} data-testid="trade-help">
        {[1, 2, 3, 4].map((n) => (
          <li key={n}>
            <span className={styles.n}>{n}</span>
            <span className={n === 4 ? styles.mono : undefined}>{t(`skin.help${n}`)}</span>
          </li>
        ))}
      </ol>
      <Button block onClick={onClose}>
        {t('withdraw.close')}
      </Button>
    </Modal>
  );
}
