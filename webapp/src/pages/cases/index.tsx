import { useEffect, useState } from 'react';
import { useNavigate } from '../../lib/router';

import { BottomSheet, Button, Img, SkeletonCards, TokenAmount } from '../../components/ui';
import {
  chancesByRarity,
  formatChance,
  useCases,
  type Case,
} from '../../features/cases';
import { DropRibbonSlot } from '../../features/feed';
import { CaseContents, caseTitle, ensureGoodsTexts, rarityColor, rarityKey } from '../../features/goods';
import { BreakNotice, useBreak } from '../../features/responsible';
import { useSettings } from '../../features/settings';
import { addTexts, useT } from '../../i18n';
import { haptic } from '../../lib/telegram';
import styles from './cases.module.css';
import en from './texts/en.json';
import ru from './texts/ru.json';

// This screen's texts load with it, not in the start-up bundle.
addTexts({ ru, en });

// The goods texts this screen uses load with it (not in the start-up bundle).
ensureGoodsTexts();

export function CasesPage() {
  const t = useT();
  const navigate = useNavigate();
  const cases = useCases((s) => s.cases);
  const loading = useCases((s) => s.loading);
  const error = useCases((s) => s.error);
  const fetchedAt = useCases((s) => s.fetchedAt);
  const [odds, setOdds] = useState<Case | null>(null);
  const lang = useSettings((s) => s.language);
  const onBreak = useBreak();
  // The sheet's item names and prices come from the case detail (the list is slim).
  const detail = useCases((s) => (odds ? s.details[odds.id] : undefined));
  useEffect(() => {
    if (odds) void useCases.getState().loadDetail(odds.id).catch(() => undefined);
  }, [odds]);

  useEffect(() => {
    void useCases.getState().load();
  }, []);

  const showSkeleton = (loading || fetchedAt === 0) && cases.length === 0 && !error;
  return (
    <main className={styles.page} data-testid="page-cases">
      <h1 className={styles.title}>{t('store.title')}</h1>
      <p className={styles.subtitle}>{t('store.subtitle')}</p>
      <BreakNotice place="store" exclusion={onBreak} />
      <DropRibbonSlot />
      {error && cases.length === 0 ? (
        <div className={styles.empty}>
          <p>{t('store.loadError')}</p>
          <Button variant="secondary" onClick={() => void useCases.getState().load(true)}>
            {t('common.retry')}
          </Button>
        </div>
      ) : (
        <div className={styles.grid} aria-busy={showSkeleton || undefined}>
          {showSkeleton && <SkeletonCards count={6} height={236} />}
          {!showSkeleton && cases.length === 0 && <p className={styles.empty}>{t('store.empty')}</p>}
          {cases.map((c) => (
            <article key={c.id} className={styles.card} data-testid="case-card">
              <button
                type="button"
                className={styles.open}
                onClick={() => {
                  haptic.light();
                  navigate(`/case/${c.id}`);
                }}
              >
                <Img src={c.image} alt={caseTitle(c, lang)} className={styles.img} kind="case" />
                <span className={styles.name}>{caseTitle(c, lang)}</span>
                <TokenAmount value={c.tokens} whole className={styles.price} />
              </button>
              <button type="button" className={styles.oddsBtn} onClick={() => setOdds(c)} aria-label={`${t('store.odds')}: ${caseTitle(c, lang)}`}>
                <span className={styles.bar} aria-hidden>
                  {chancesByRarity(c.items).map((r) => (
                    <span key={r.rarity} style={{ flexGrow: Math.max(r.chance, 0.8), background: rarityColor(r.rarity) }} />
                  ))}
                </span>
                <span className={styles.oddsLabel}>{t('store.odds')} ›</span>
              </button>
            </article>
          ))}
        </div>
      )}

      <BottomSheet open={odds !== null} onClose={() => setOdds(null)} title={odds ? `${caseTitle(odds, lang)} — ${t('store.oddsTitle')}` : ''}>
        {odds && (
          <div className={styles.sheet} data-testid="odds-sheet">
            <ul className={styles.summary}>
              {chancesByRarity(odds.items).map((r) => {
                const key = rarityKey(r.rarity);
                return (
                  <li key={r.rarity} style={{ ['--rarity' as string]: rarityColor(r.rarity) }}>
                    <span className={styles.dot} />
                    {key ? t(key) : r.rarity}
                    <b>{formatChance(Math.round(r.chance * 1000) / 1000)}</b>
                  </li>
                );
              })}
            </ul>
            {detail ? <CaseContents items={detail.items} rarityColor={rarityColor} /> : <SkeletonCards count={3} height={56} />}
            {!onBreak && (
              <Button
                block
                size="lg"
                onClick={() => {
                  const id = odds.id;
                  setOdds(null);
                  navigate(`/case/${id}`);
                }}
              >
                {t('store.open')}
              </Button>
            )}
          </div>
        )}
      </BottomSheet>
    </main>
  );
}
