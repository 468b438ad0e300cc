import { useState } from 'react';

import { Button, toast } from '../../../components/ui';
import { useT } from '../../../i18n';
import { isApiError } from '../../../lib/api-client';
import { errorText } from '../../../lib/errors';
import { formatTokens } from '../../../lib/format';
import { haptic } from '../../../lib/telegram';
import { useSession } from '../../session';
import { redeemPromo } from '../api';
import { cleanPromoInput, isPromoCode, promoErrorKey } from '../logic';
import { ensureResponsibleTexts } from '../texts';
import styles from './responsible.module.css';

/** The profile's promo-code field: the code's tokens arrive as bonus tokens, once per player. */
export function PromoField() {
  ensureResponsibleTexts();
  const t = useT();
  const [code, setCode] = useState('');
  const [error, setError] = useState<{ code: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (busy) return;
    const clean = cleanPromoInput(code);
    if (!isPromoCode(clean)) {
      haptic.error();
      setError({ code: 'invalid', text: t('responsible.promoInvalid') });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { tokensAwarded, balance } = await redeemPromo(clean);
      haptic.success();
      const session = useSession.getState();
      session.setBalance(balance);
      session.patchUser({ bonusBalance: Number(session.user?.bonusBalance ?? 0) + Number(tokensAwarded) });
      toast.success(t('responsible.promoSuccess', { amount: formatTokens(tokensAwarded) }));
      setCode('');
    } catch (e) {
      haptic.error();
      const key = isApiError(e) ? promoErrorKey(e.code) : null;
      setError({ code: isApiError(e) ? e.code : 'error', text: key ? t(key) : errorText(e, t) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className={styles.box}
      data-testid="promo-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h2 className={styles.boxTitle}>{t('responsible.promoTitle')}</h2>
      <div className={styles.line}>
        <input
          className="field"
          value={code}
          onChange={(e) => {
            setCode(e.target.value);
            if (error) setError(null);
          }}
          placeholder={t('responsible.promoPlaceholder')}
          aria-label={t('responsible.promoTitle')}
          aria-invalid={error ? true : undefined}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          maxLength={64}
          data-testid="promo-input"
        />
        <Button type="submit" loading={busy} disabled={!code.trim()} data-testid="promo-redeem">
          {t('responsible.promoRedeem')}
        </Button>
      </div>
      {error && (
        <p className={styles.error} role="alert" data-testid="promo-error" data-code={error.code}>
          {error.text}
        </p>
      )}
    </form>
  );
}
