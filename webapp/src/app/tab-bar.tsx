import type { ComponentType } from 'react';
import { useLocation, useNavigate } from '../lib/router';

import { IconFriends, IconProfile, IconSkins, IconStore, IconToken } from '../components/ui';
import { useT } from '../i18n';
import { haptic } from '../lib/telegram';
import { activeTab, tabs, type TabKey } from './navigation';
import styles from './tab-bar.module.css';

const icons: Record<TabKey, ComponentType<{ size?: number }>> = {
  home: IconToken,
  cases: IconStore,
  skins: IconSkins,
  referrals: IconFriends,
  profile: IconProfile,
};

/** The five-tab bar: light haptic, navigate, scroll to top. */
export function TabBar() {
  const t = useT();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = activeTab(pathname);
  return (
    <nav className={styles.bar} aria-label="tabs">
      {tabs.map((tab) => {
        const Icon = icons[tab.key];
        const isActive = tab.key === active;
        return (
          <button
            key={tab.key}
            type="button"
            className={`${styles.tab} ${isActive ? styles.active : ''}`}
            aria-current={isActive ? 'page' : undefined}
            data-tab={tab.key}
            onClick={() => {
              haptic.light();
              if (pathname !== tab.path) navigate(tab.path);
              window.scrollTo({ top: 0, behavior: pathname === tab.path ? 'smooth' : 'auto' });
            }}
          >
            <Icon size={24} />
            <span className={styles.label}>{t(`tabs.${tab.key}`)}</span>
          </button>
        );
      })}
    </nav>
  );
}
