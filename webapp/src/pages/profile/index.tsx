import { useState, type ReactNode } from 'react';
import { useNavigate } from '../../lib/router';

import { IconCart, IconChat, IconChevron, IconLink, IconShield, IconUsers, PageHeader, Segmented, toast, Toggle } from '../../components/ui';
import { useShowNameSetting } from '../../features/feed';
import { paidOnly, useGates } from '../../features/gates';
import { useSession } from '../../features/session';
import { saveLanguage, useSettings } from '../../features/settings';
import { ensureGoodsTexts } from '../../features/goods';
import { PromoField, ResponsiblePlay } from '../../features/responsible';
import { addTexts, useT } from '../../i18n';
import type { Language } from '../../i18n/language';
import { formatTokens } from '../../lib/format';
import { resolveImageUrl } from '../../lib/image';
import { haptic, openLink } from '../../lib/telegram';
import styles from './profile.module.css';
import en from './texts/en.json';
import ru from './texts/ru.json';

// This screen's texts, and the goods texts it uses, load with it (not in the start-up bundle).
addTexts({ ru, en });
ensureGoodsTexts();

/** Spec section 9: the version line reads 1.0.0. */
export const APP_VERSION = '1.0.0';

const languageOptions: ReadonlyArray<{ value: Language; label: string }> = [
  { value: 'ru', label: 'Русский' },
  { value: 'en', label: 'English' },
];

function Avatar({ url, name }: { url?: string | null; name: string }) {
  const [failed, setFailed] = useState(false);
  const initial = (name.trim()[0] ?? '?').toUpperCase();
  if (!url || failed) {
    return (
      <div className={styles.avatar} aria-hidden data-testid="avatar-initial">
        {initial}
      </div>
    );
  }
  return <img className={styles.avatar} src={resolveImageUrl(url)} alt="" onError={() => setFailed(true)} />;
}

function Row({ icon, label, onClick, testId, trailing }: { icon: ReactNode; label: string; onClick?: () => void; testId?: string; trailing?: ReactNode }) {
  const content = (
    <>
      <span className={styles.rowIcon}>{icon}</span>
      <span className={styles.rowLabel}>{label}</span>
      {trailing ?? (onClick && <IconChevron size={18} className={styles.chevron} />)}
    </>
  );
  return onClick ? (
    <button type="button" className={styles.row} onClick={onClick} data-testid={testId}>
      {content}
    </button>
  ) : (
    <div className={styles.row} data-testid={testId}>
      {content}
    </div>
  );
}

/** Profile and settings (spec section 2). */
export function ProfilePage() {
  const t = useT();
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const communityUrl = useGates((s) => s.config?.communityUrl);
  // What the profile says about bonus skins is what the server does (off in demo mode).
  const keepsBonusSkins = useGates((s) => paidOnly(s.config));
  const language = useSettings((s) => s.language);
  const theme = useSettings((s) => s.theme);
  const soundEnabled = useSettings((s) => s.soundEnabled);
  const feedName = useShowNameSetting();

  const fullName = [user?.firstName, user?.lastName].filter(Boolean).join(' ') || user?.username || '';

  const changeLanguage = (next: Language) => {
    haptic.selection();
    useSettings.getState().setLanguage(next);
    // The bot speaks the player's language too; a failure keeps the local choice.
    saveLanguage(next).catch(() => toast.error(t('profile.languageSaveError')));
  };

  const bonus = Math.min(Number(user?.bonusBalance ?? 0) || 0, user?.balance ?? 0);
  return (
    <div className={styles.page} data-testid="page-profile">
      <PageHeader title={t('profile.title')} />
      <div className={styles.card}>
        <Avatar url={user?.avatarUrl} name={fullName || '?'} />
        <div className={styles.identity}>
          <div className={styles.name} data-testid="profile-name">
            {fullName}
          </div>
          {user?.username && <div className={styles.username}>@{user.username}</div>}
        </div>
        <div className={styles.balance}>
          <div className={styles.balanceValue}>{formatTokens(user?.balance ?? 0)}</div>
          <div className={styles.balanceLabel}>{t('profile.balance')}</div>
          {bonus > 0 && (
            <div className={styles.balanceLabel} data-testid="profile-bonus">
              {t('goods.bonusOf', { amount: formatTokens(bonus) })}
            </div>
          )}
        </div>
      </div>
      {bonus > 0 && (
        <p className={styles.bonusExplain} data-testid="profile-bonus-explain">
          {t(keepsBonusSkins ? 'goods.bonusExplain' : 'goods.bonusExplainOpen')}
        </p>
      )}

      {Number(user?.debt ?? 0) > 0 && (
        <div className={styles.debt} role="note" data-testid="profile-debt">
          <strong>{t('profile.debtTitle', { amount: formatTokens(Number(user?.debt)), count: Number(user?.debt) })}</strong>
          <span>{t('profile.debtText')}</span>
        </div>
      )}

      <PromoField />

      <div className="section">
        <Row icon={<IconCart size={20} />} label={t('profile.buyTokens')} onClick={() => navigate('/packages')} testId="profile-packages" />
        <Row icon={<IconLink size={20} />} label={t('profile.tradeLink')} onClick={() => navigate('/trade-url')} testId="profile-trade-url" />
        {communityUrl && (
          <Row icon={<IconUsers size={20} />} label={t('profile.community')} onClick={() => openLink(communityUrl)} testId="profile-community" />
        )}
        <Row icon={<IconChat size={20} />} label={t('profile.support')} onClick={() => navigate('/support')} testId="profile-support" />
        <Row icon={<IconShield size={20} />} label={t('profile.fair')} onClick={() => navigate('/fair')} testId="profile-fair" />
      </div>

      <h2 className="section-title">{t('profile.settings')}</h2>
      <div className="section">
        <Row
          icon={null}
          label={t('profile.language')}
          testId="setting-language"
          trailing={<Segmented value={language} options={languageOptions} onChange={changeLanguage} label={t('profile.language')} />}
        />
        <Row
          icon={null}
          label={t('feed.showName')}
          testId="setting-feed-name"
          trailing={
            <Toggle
              checked={feedName.shown ?? true}
              disabled={feedName.shown === null}
              label={t('feed.showName')}
              onChange={(on) => {
                haptic.selection();
                void feedName.setShown(on);
              }}
            />
          }
        />
        <Row
          icon={null}
          label={t('profile.sound')}
          testId="setting-sound"
          trailing={
            <Toggle
              checked={soundEnabled}
              label={t('profile.sound')}
              onChange={(on) => {
                haptic.selection();
                useSettings.getState().setSoundEnabled(on);
              }}
            />
          }
        />
        <Row
          icon={null}
          label={t('profile.darkTheme')}
          testId="setting-theme"
          trailing={
            <Toggle
              checked={theme === 'dark'}
              label={t('profile.darkTheme')}
              onChange={(on) => {
                haptic.selection();
                useSettings.getState().setTheme(on ? 'dark' : 'light');
              }}
            />
          }
        />
      </div>
      <ResponsiblePlay />

      <p className={styles.version} data-testid="app-version">
        {t('profile.version', { version: APP_VERSION })}
      </p>
    </div>
  );
}
