import { useEffect } from 'react';

import { Img, Skeleton, TokenAmount } from '../../components/ui';
import { useCases } from '../../features/cases';
import { useSettings } from '../../features/settings';
import { useT } from '../../i18n';
import { useNavigate } from '../../lib/router';
import { haptic } from '../../lib/telegram';
import styles from './featured-cases.module.css';

/** How many cases home shows: a row that fits a 360–430 px phone. */
export const FEATURED_COUNT = 3;

/**
 * Home's shop window: the first cases of the catalog, each one tap from its roulette. `paused`
 * (a self-exclusion runs): the cards stay to look at, without their "Open".
 */
export function FeaturedCases({ paused = false }: { paused?: boolean }) {
  const t = useT();
  const navigate = useNavigate();
  const cases = useCases((s) => s.cases);
  const fetchedAt = useCases((s) => s.fetchedAt);
  const error = useCases((s) => s.error);
  const lang = useSettings((s) => s.language);

  useEffect(() => {
    void useCases.getState().load();
  }, []);

  if (error && cases.length === 0) return null;
  const featured = cases.slice(0, FEATURED_COUNT);
  const open = (id: string) => {
    haptic.light();
    navigate(`/case/${id}`);
  };
  return (
    <section className={styles.section} aria-labelledby="featured-title" data-testid="featured-cases">
      <div className={styles.head}>
        <h2 id="featured-title" className={styles.title}>
          {t('home.featuredTitle')}
        </h2>
        <button type="button" className={styles.all} onClick={() => navigate('/cases')}>
          {t('home.featuredAll')}
        </button>
      </div>
      <ul className={styles.row}>
        {fetchedAt === 0 && cases.length === 0
          ? Array.from({ length: FEATURED_COUNT }, (_, i) => (
              <li key={i} className={styles.card} aria-hidden>
                <Skeleton height={150} radius={14} />
              </li>
            ))
          : featured.map((c) => (
              <li key={c.id} className={styles.card} data-testid="featured-case">
                <button type="button" className={styles.tap} onClick={() => open(c.id)}>
                  <Img src={c.image} alt="" className={styles.img} kind="case" />
                  <span className={styles.name}>{(lang === 'ru' && c.nameRu) || c.name}</span>
                  <TokenAmount value={c.tokens} whole size={14} className={styles.price} />
                  {!paused && <span className={styles.cta}>{t('home.featuredOpen')}</span>}
                </button>
              </li>
            ))}
      </ul>
    </section>
  );
}
