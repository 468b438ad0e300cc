import { IconToken } from './icons';
import { formatTokens, formatTokensInt } from '../../lib/format';
import styles from './token-amount.module.css';

/** A token amount with the token mark: ru-RU digits, up to 2 decimals (or none with `whole`). */
export function TokenAmount({ value, whole = false, size = 16, className }: { value: number | string; whole?: boolean; size?: number; className?: string }) {
  return (
    <span className={`${styles.amount} ${className ?? ''}`}>
      <IconToken size={size} className={styles.icon} />
      {whole ? formatTokensInt(value) : formatTokens(value)}
    </span>
  );
}
