import { useEffect, useState } from 'react';

import { Button, IconFriends, MainAction, PageHeader, SkeletonRows, toast, TokenAmount } from '../../components/ui';
import { useGates } from '../../features/gates';
import { useReferrals, type Referral } from '../../features/referrals';
import { useSession } from '../../features/session';
import { addTexts, useT } from '../../i18n';
import { formatDate, formatTokens } from '../../lib/format';
import { resolveImageUrl } from '../../lib/image';
import { haptic } from '../../lib/telegram';
import { copyText, shareLink } from '../../lib/telegram-actions';
import styles from './referrals.module.css';
import en from './texts/en.json';
import ru from './texts/ru.json';

// This screen's texts load with it, not in the start-up bundle.
addTexts({ ru, en });

function Avatar({ r }: { r: Referral }) {
  const [failed, setFailed] = useState(false);
  const name = r.firstName || r.username || '?';
  if (r.avatarUrl && !failed) {
    return <img className={styles.avatar} src={resolveImageUrl(r.avatarUrl)} alt="" onError={() => setFailed(true)} />;
  }
  return <span className={styles.avatar}>{name.trim()[0]?.toUpperCase() ?? '?'}</span>;
}

/** `/referrals`: stats, the invited friends page by page, and the fixed invite button. */
export function ReferralsPage() {
  const t = useT();
  const data = useReferrals((s) => s.data);
  const page = useReferrals((s) => s.page);
  const loading = useReferrals((s) => s.loading);
  const error = useReferrals((s) => s.error);
  const ref = useSession((s) => s.user?.ref);
  const inviteBase = useGates((s) => s.config?.inviteLinkBase);

  useEffect(() => {
    void useReferrals.getState().load(1);
  }, []);

  useEffect(() => {
    if (error && !data) toast.error(t('referrals.loadError'));
  }, [error]);

  const code = data?.referralCode ?? ref;
  const link = data?.inviteLink ?? (inviteBase && code ? `${inviteBase}?startapp=ref_${code}` : '');

  const invite = async () => {
    if (!link) return;
    haptic.light();
    // Spec: the share link on clients >= 6.0, otherwise the link is copied.
    if (shareLink(link, t('referrals.inviteText'))) return;
    if (await copyText(link)) toast.success(t('referrals.linkCopied'));
    else toast.error(t('common.error'));
  };

  const copy = async () => {
    if (!link) return;
    haptic.light();
    if (await copyText(link)) toast.success(t('referrals.linkCopied'));
    else toast.error(t('common.error'));
  };

  const pagination = data?.pagination;
  const go = (p: number) => {
    haptic.selection();
    void useReferrals.getState().load(p);
  };

  return (
    <main className={styles.page} data-testid="page-referrals">
      <PageHeader title={t('referrals.title')} subtitle={t('referrals.subtitle')} />
      <div className={styles.tiles}>
        <div className={styles.tile}>
          <span className={styles.tileValue} data-testid="ref-invited">{data?.stats.invitedCount ?? '—'}</span>
          <span className={styles.tileLabel}>{t('referrals.invited')}</span>
        </div>
        <div className={styles.tile}>
          <span className={styles.tileValue}>{data?.stats.activeUsers ?? '—'}</span>
          <span className={styles.tileLabel}>{t('referrals.active')}</span>
        </div>
        <div className={styles.tile}>
          <span className={styles.tileValue} data-testid="ref-earned">
            {data ? <TokenAmount value={data.stats.totalEarned} size={18} /> : '—'}
          </span>
          <span className={styles.tileLabel}>{t('referrals.earned')}</span>
        </div>
      </div>

      {/* The link itself, to read and copy: sharing is the bottom button. */}
      <section className={styles.linkCard} aria-labelledby="invite-link-title">
        <h2 id="invite-link-title" className={styles.linkTitle}>
          {t('referrals.linkTitle')}
        </h2>
        <div className={styles.linkRow}>
          <code className={styles.link} data-testid="invite-link">
            {link || '—'}
          </code>
          <Button size="sm" variant="secondary" onClick={() => void copy()} disabled={!link} data-testid="invite-copy">
            {t('referrals.copy')}
          </Button>
        </div>
      </section>

      <h2 className={styles.h2}>{t('referrals.listTitle')}</h2>
      <ul className={styles.list} aria-busy={loading || undefined}>
        {loading && (!data || data.pagination.page !== page) ? (
          <SkeletonRows count={3} />
        ) : data && data.referrals.length > 0 ? (
          data.referrals.map((r) => (
            <li key={r.telegramId} className={styles.row} data-testid="referral-row">
              <Avatar r={r} />
              <span className={styles.who}>
                <span className={styles.name}>{[r.firstName, r.lastName].filter(Boolean).join(' ') || (r.username ? `@${r.username}` : `#${r.telegramId}`)}</span>
                <span className={styles.sub}>
                  {r.firstCaseOpenedAt
                    ? t('referrals.openedCase', { amount: formatTokens(r.tokensEarned) })
                    : t('referrals.noCaseYet')}
                  {' · '}
                  {t('referrals.joined', { date: formatDate(r.joinedAt) })}
                </span>
              </span>
            </li>
          ))
        ) : (
          <li className={styles.empty}>
            <IconFriends size={36} />
            <span>{t('referrals.empty')}</span>
          </li>
        )}
      </ul>

      {pagination && pagination.totalPages > 1 && (
        <nav className={styles.pager} data-testid="ref-pager">
          <Button size="sm" variant="secondary" disabled={loading || pagination.page <= 1} onClick={() => go(pagination.page - 1)}>
            ‹ {t('referrals.prev')}
          </Button>
          <span>{t('referrals.page', { page: pagination.page, total: pagination.totalPages })}</span>
          <Button size="sm" variant="secondary" disabled={loading || pagination.page >= pagination.totalPages} onClick={() => go(pagination.page + 1)}>
            {t('referrals.next')} ›
          </Button>
        </nav>
      )}

      <MainAction testId="invite" text={t('referrals.invite')} onClick={() => void invite()} visible={Boolean(link)} />
    </main>
  );
}
