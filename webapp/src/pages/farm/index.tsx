import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useNavigate } from '../../lib/router';

import { Button, IconToken, PageHeader } from '../../components/ui';
import { addTexts, useT } from '../../i18n';
import { formatTokensInt } from '../../lib/format';
import { haptic } from '../../lib/telegram';
import styles from './farm.module.css';
import en from './texts/en.json';
import ru from './texts/ru.json';

// This screen's texts load with it, not in the start-up bundle.
addTexts({ ru, en });

/** Spec section 9: each tap spawns four coloured dots that vanish after 1 s. */
export const DOT_LIFETIME_MS = 1000;
const DOT_COLORS = ['#f5a524', '#31b545', '#4b69ff', '#eb4b4b'];

interface Burst {
  id: number;
  x: number;
  y: number;
  angles: number[];
}

/** `/farm`: the clicker. A local counter only: nothing here touches the real balance. */
export function FarmPage() {
  const t = useT();
  const navigate = useNavigate();
  const [count, setCount] = useState(0);
  const [bursts, setBursts] = useState<Burst[]>([]);
  const nextId = useRef(1);
  const timers = useRef<Array<ReturnType<typeof setTimeout>>>([]);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const tap = (e: PointerEvent<HTMLButtonElement>) => {
    haptic.light();
    setCount((c) => c + 1);
    const rect = e.currentTarget.getBoundingClientRect();
    const id = nextId.current++;
    const base = Math.random() * 90;
    const burst: Burst = {
      id,
      x: e.clientX - rect.left,
      y: e.clientY - rect.top,
      angles: [0, 90, 180, 270].map((a) => a + base),
    };
    setBursts((b) => [...b.slice(-11), burst]);
    timers.current.push(setTimeout(() => setBursts((b) => b.filter((x) => x.id !== id)), DOT_LIFETIME_MS));
  };

  return (
    <main className={styles.page} data-testid="page-farm">
      <PageHeader title={t('farm.title')} subtitle={t('farm.tap')} />
      <p className={styles.counter} data-testid="farm-counter">
        {t('farm.counter', { count: formatTokensInt(count) })}
      </p>
      <div className={styles.stage}>
        <button type="button" className={styles.token} onPointerDown={tap} aria-label={t('farm.tap')} data-testid="farm-token">
          <IconToken size={150} strokeWidth={1.2} />
          {bursts.map((b) =>
            b.angles.map((a, i) => (
              <span
                key={`${b.id}-${i}`}
                className={styles.dot}
                style={{
                  left: b.x,
                  top: b.y,
                  background: DOT_COLORS[i],
                  ['--dx' as string]: `${Math.cos((a * Math.PI) / 180) * 70}px`,
                  ['--dy' as string]: `${Math.sin((a * Math.PI) / 180) * 70}px`,
                }}
                data-testid="farm-dot"
                aria-hidden
              />
            )),
          )}
        </button>
      </div>
      <p className={styles.note} data-testid="farm-note">
        {t('farm.note')}
      </p>
      <Button block variant="secondary" onClick={() => navigate('/')}>
        {t('farm.earnReal')}
      </Button>
    </main>
  );
}
