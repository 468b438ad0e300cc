import { useMemo, useRef, useState } from 'react';

import { toast } from '../../components/ui';
import { t } from '../../i18n';
import { errorText } from '../../lib/errors';
import { formatTokens } from '../../lib/format';
import { holdClosing, releaseClosing } from '../../lib/native-ui';
import { launch, versionAtLeast } from '../../lib/launch';
import { getRawInitData, haptic } from '../../lib/telegram';
import { onInvoiceClosed, openInvoiceLink } from '../../lib/telegram-actions';
import { useGoBack } from '../../lib/use-go-back';
import { useSession } from '../session';
import { createInvoiceLink, fetchTransactionStatus } from './api';
import { abortableSleep, createPurchaser, type Notice, type Pack } from './purchase';

/** Spec section 9: the purchase congratulation lasts 2 s. */
export const PURCHASE_TOAST_MS = 2000;

function show(notice: Notice): void {
  switch (notice.kind) {
    case 'success':
      haptic.success();
      toast.success(t('purchase.success', { tokens: formatTokens(notice.tokens), count: Number(notice.tokens) }), { durationMs: PURCHASE_TOAST_MS });
      return;
    case 'failed':
      haptic.error();
      toast.error(t('purchase.failed'));
      return;
    case 'cancelled':
      toast.info(t('purchase.cancelled'));
      return;
    case 'invoiceError':
      haptic.error();
      toast.error(errorText(notice.error, t));
      return;
    default:
      toast.info(t(`purchase.${notice.kind}`));
  }
}

/** The purchase flow bound to Telegram, the API and the toasts; `busy` is the pack in flight. */
export function usePurchase() {
  const back = useGoBack('/');
  const goBack = useRef(back);
  goBack.current = back;
  const [busy, setBusy] = useState<string | null>(null);
  const purchaser = useMemo(
    () =>
      createPurchaser({
        userId: () => launch.userId ?? useSession.getState().user?.telegramId,
        clientVersionAtLeast: versionAtLeast,
        createInvoice: (packId, telegramId) => createInvoiceLink(packId, telegramId, getRawInitData() ?? ''),
        openInvoice: openInvoiceLink,
        onInvoiceClosed,
        transactionStatus: fetchTransactionStatus,
        sleep: abortableSleep,
        notify: show,
        refreshProfile: () => useSession.getState().refreshBalance(),
        goBack: () => goBack.current(),
      }),
    [],
  );
  const buy = async (pack: Pack) => {
    if (purchaser.busy) return;
    haptic.light();
    setBusy(pack.id ?? '');
    // Closing the app mid-payment asks first (the invoice may still be paid).
    holdClosing();
    try {
      await purchaser.buy(pack);
    } finally {
      releaseClosing();
      setBusy(null);
    }
  };
  return { buy, busy };
}
