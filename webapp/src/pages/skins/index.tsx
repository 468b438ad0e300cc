import { useEffect, useState } from 'react';
import { useNavigate } from '../../lib/router';

import { Button, IconSkins, PageHeader, Segmented, SkeletonCards } from '../../components/ui';
import { filterByTab, SkinCard, useInventory, type InventoryItem, type SkinTab } from '../../features/inventory';
import { SKIN_SORTS, sortSkins, type SkinSort, ensureGoodsTexts } from '../../features/goods';
import { useSettings } from '../../features/settings';
import { useT } from '../../i18n';
import { haptic } from '../../lib/telegram';
import styles from './skins.module.css';

// The goods texts this screen uses load with it (not in the start-up bundle).
ensureGoodsTexts();

const emptyKey: Record<SkinTab, string> = {
  received: 'skins.emptyReceived',
  pending: 'skins.emptyPending',
  sent: 'skins.emptySent',
};

const sortKey: Record<SkinSort, string> = { recent: 'goods.sortRecent', price: 'goods.sortPrice', rarity: 'goods.sortRarity' };

/** `/skins` and `/inventory`: the three tabs of spec section 4, refreshed at most every 15 s. */
export function SkinsPage() {
  const t = useT();
  const navigate = useNavigate();
  const items = useInventory((s) => s.items);
  const loading = useInventory((s) => s.loading);
  const fetchedAt = useInventory((s) => s.fetchedAt);
  const error = useInventory((s) => s.error);
  const [tab, setTab] = useState<SkinTab>('received');
  const sort = useSettings((s) => s.skinSort);

  useEffect(() => {
    void useInventory.getState().load();
  }, []);

  const open = (item: InventoryItem) => {
    haptic.light();
    navigate(`/skin/${item.id}`, { state: { skin: item } });
  };

  const shown = sortSkins(filterByTab(items, tab), sort);
  const firstLoad = fetchedAt === 0 && (loading || !error);
  return (
    <main className={styles.page} data-testid="page-skins">
      <PageHeader title={t('skins.title')} />
      <div className={styles.tabs}>
        <Segmented
          label={t('skins.title')}
          value={tab}
          onChange={(v) => {
            haptic.selection();
            setTab(v);
          }}
          options={[
            { value: 'received', label: t('skins.tabReceived') },
            { value: 'pending', label: t('skins.tabPending') },
            { value: 'sent', label: t('skins.tabSent') },
          ]}
        />
      </div>
      {shown.length > 1 && (
        <div className={styles.sort} data-testid="skins-sort">
          <Segmented<SkinSort>
            label={t('goods.sortLabel')}
            value={sort}
            onChange={(v) => {
              haptic.selection();
              useSettings.getState().setSkinSort(v);
            }}
            options={SKIN_SORTS.map((v) => ({ value: v, label: t(sortKey[v]) }))}
          />
        </div>
      )}
      {firstLoad ? (
        <div className={styles.grid} aria-busy="true">
          <SkeletonCards count={6} height={178} />
        </div>
      ) : error && items.length === 0 ? (
        <div className={styles.empty}>
          <p>{t('skins.loadError')}</p>
          <Button variant="secondary" onClick={() => void useInventory.getState().load(true)}>
            {t('common.retry')}
          </Button>
        </div>
      ) : shown.length === 0 ? (
        <div className={styles.empty} data-testid="skins-empty">
          <IconSkins size={44} className={styles.emptyIcon} />
          <p>{t(emptyKey[tab])}</p>
          {tab === 'received' ? (
            <Button onClick={() => navigate('/cases')}>{t('skins.openCases')}</Button>
          ) : (
            <Button variant="secondary" onClick={() => setTab('received')}>
              {t('skins.toReceived')}
            </Button>
          )}
        </div>
      ) : (
        <div className={styles.grid}>
          {shown.map((item) => (
            <SkinCard key={item.id} item={item} onOpen={open} />
          ))}
        </div>
      )}
    </main>
  );
}
