import { useState, type FormEvent } from 'react';

import { Button, IconWrench, StatusScreen, toast } from '../../components/ui';
import { useGates } from '../../features/gates/store';
import { useT } from '../../i18n';
import { haptic, openLink } from '../../lib/telegram';
import styles from './login.module.css';

/**
 * The development gate (spec section 2): the password is checked by the server
 * (`POST /dev-gate`), never against a constant in the bundle. Passing it sets
 * `isAuthenticated`; the root gates then check the agreement (/ or /onboarding).
 */
export function LoginPage() {
  const t = useT();
  const channelUrl = useGates((s) => s.config?.channelUrl || s.config?.communityUrl);
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [wrong, setWrong] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password || busy) return;
    setBusy(true);
    setWrong(false);
    const result = await useGates.getState().submitDevGate(password);
    if (result === 'ok') {
      haptic.success();
      await useGates.getState().checkAgreement();
      if (useGates.getState().agreementCheckFailed) toast.error(t('login.agreementError'));
    } else {
      haptic.error();
      setBusy(false);
      if (result === 'wrong') {
        setWrong(true);
        toast.error(t('login.wrongPassword'));
      } else {
        toast.error(t('common.error'));
      }
    }
  };

  return (
    <StatusScreen testId="page-login" icon={<IconWrench size={44} />} title={t('login.title')} text={t('login.subtitle')}>
      <form className={styles.form} onSubmit={submit}>
        <input
          className="field"
          type="password"
          name="password"
          autoComplete="current-password"
          placeholder={t('login.password')}
          aria-label={t('login.password')}
          aria-invalid={wrong}
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            setWrong(false);
          }}
        />
        {wrong && (
          <p className={styles.error} role="alert">
            {t('login.wrongPassword')}
          </p>
        )}
        <Button type="submit" block size="lg" disabled={!password} loading={busy}>
          {t('login.enter')}
        </Button>
        {channelUrl && (
          <button type="button" className={styles.link} onClick={() => openLink(channelUrl)}>
            {t('login.community')}
          </button>
        )}
      </form>
    </StatusScreen>
  );
}
