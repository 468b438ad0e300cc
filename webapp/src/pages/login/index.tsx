import { useState, type FormEvent } from 'react';

import { Button, IconWrench, StatusScreen, toast } from '../../components/ui';
import { finishBootAfterGate } from '../../app/boot';
import { useGates } from '../../features/gates';
import { useT } from '../../i18n';
import { haptic, openLink } from '../../lib/telegram';
import styles from './login.module.css';

/**
 * The development gate (spec section 2): the password is checked by the server
 * (`POST /dev-gate`), never against a constant in the bundle. Passing it sets
 * `isAuthenticated`; the root gates then check the agreement (/ or /onboarding).
 */
export function LoginPage({ onPassed }: { onPassed?: () => void } = {}) {
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
      // Signed-in only now: the server wanted the gate's proof first.
      if (onPassed) {
        onPassed();
        return;
      }
      await finishBootAfterGate();
      if (useGates.getState().agreementCheckFailed) toast.error(t('login.agreementError'));
    } else {
      haptic.error();
      setBusy(false);
      // Each failure is said once: a wrong password under the field, anything else as a toast.
      if (result === 'wrong') setWrong(true);
      else toast.error(t(result === 'limited' ? 'errors.rate_limited' : 'common.error'));
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
