import { lazy, Suspense } from 'react';

import styles from './ribbon-slot.module.css';

// The ribbon, its stream reader, its store and its texts are one chunk loaded after the screen
// that shows it: the first screen's script does not grow by it.
const DropRibbon = lazy(() => import('./drop-ribbon').then((m) => ({ default: m.DropRibbon })));

/** Where a screen shows the live drop ribbon: its height is held while the chunk loads. */
export function DropRibbonSlot() {
  return (
    <div className={styles.slot}>
      <Suspense fallback={null}>
        <DropRibbon />
      </Suspense>
    </div>
  );
}
