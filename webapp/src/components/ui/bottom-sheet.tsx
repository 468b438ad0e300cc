import { useEffect, useId, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

import styles from './bottom-sheet.module.css';

export interface BottomSheetProps {
  open: boolean;
  onClose: () => void;
  title?: ReactNode;
  children: ReactNode;
  /** Bottom-anchored sheet (default) or a centred dialog. */
  variant?: 'sheet' | 'dialog';
  /** Close on backdrop tap / Escape (default true; false while something is in flight). */
  dismissible?: boolean;
  labelledBy?: string;
}

/** A bottom sheet or centred modal rendered into `document.body`, animated with transform only. */
export function BottomSheet({ open, onClose, title, children, variant = 'sheet', dismissible = true, labelledBy: given }: BottomSheetProps) {
  const ownId = useId();
  const labelledBy = given ?? (title ? ownId : undefined);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && dismissible) onClose();
    };
    document.addEventListener('keydown', onKey);
    const prev = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = prev;
    };
  }, [open, dismissible, onClose]);

  if (!open) return null;
  return createPortal(
    <div className={`${styles.backdrop} ${variant === 'dialog' ? styles.centered : ''}`} onClick={() => dismissible && onClose()}>
      <div
        className={variant === 'dialog' ? styles.dialog : styles.sheet}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        onClick={(e) => e.stopPropagation()}
      >
        {variant === 'sheet' && <div className={styles.handle} aria-hidden />}
        {title && (
          <h2 className={styles.title} id={labelledBy}>
            {title}
          </h2>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}

/** A centred dialog: `<Modal open onClose title>...</Modal>`. */
export function Modal(props: Omit<BottomSheetProps, 'variant'>) {
  return <BottomSheet {...props} variant="dialog" />;
}
