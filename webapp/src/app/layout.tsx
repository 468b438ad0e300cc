import { Suspense } from 'react';
import { Outlet, useLocation } from '../lib/router';

import { Skeleton } from '../components/ui';
import { useMainButtonShown } from '../lib/native-ui';

import { hasBottomPadding, isTabBarHidden } from './navigation';
import styles from './layout.module.css';
import { TabBar } from './tab-bar';

/**
 * The main layout: content below the safe area, the tab bar unless the path hides it or
 * Telegram's main button is shown (one bottom bar at a time; the screen's action wins).
 */
export function Layout() {
  const { pathname } = useLocation();
  const mainButton = useMainButtonShown();
  const tabBar = !isTabBarHidden(pathname) && !mainButton;
  const padded = tabBar && hasBottomPadding(pathname);
  return (
    <div className={styles.layout}>
      <div className={`${styles.content} ${padded ? styles.withTabBar : ''}`}>
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </div>
      {tabBar && <TabBar />}
    </div>
  );
}

/** While a screen's chunk loads for the first time (tab screens are usually prefetched). */
function PageFallback() {
  return (
    <div className={styles.fallback} aria-busy="true">
      <Skeleton height={28} width="45%" />
      <Skeleton height={120} radius={14} />
      <Skeleton height={120} radius={14} />
    </div>
  );
}
