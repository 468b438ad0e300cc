import { useEffect, useState } from 'react';
import { useNavigate } from '../../lib/router';

import { Button, PageHeader, toast } from '../../components/ui';
import { IconNotes } from '../../features/rewards';
import { CreateTicket, ensureSupportTexts, Faq, useSupport } from '../../features/support';
import { useT } from '../../i18n';
import { formatDateTime } from '../../lib/format';
import { haptic } from '../../lib/telegram';
import styles from './support.module.css';

// This screen's texts load with it, not in the start-up bundle.
ensureSupportTexts();

/** `/support`: my tickets, the FAQ and the create-ticket modal. */
export function SupportPage() {
  const t = useT();
  const navigate = useNavigate();
  const tickets = useSupport((s) => s.tickets);
  const loading = useSupport((s) => s.loading);
  const loaded = useSupport((s) => s.loaded);
  const error = useSupport((s) => s.error);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    void useSupport.getState().load();
  }, []);
  useEffect(() => {
    if (error) toast.error(t('support.loadError'));
  }, [error]);

  return (
    <main className={styles.page} data-testid="page-support">
      <PageHeader
        title={t('support.title')}
        action={
          <Button size="sm" onClick={() => setCreating(true)} data-testid="create-ticket-button">
            + {t('support.create')}
          </Button>
        }
      />
      <h2 className={styles.h2}>{t('support.myTickets')}</h2>
      {loading && !loaded ? (
        <p className={styles.state}>{t('support.loading')}</p>
      ) : tickets.length === 0 ? (
        <div className={styles.empty} data-testid="tickets-empty">
          <IconNotes size={36} className={styles.notes} />
          <p>{t('support.empty')}</p>
          <Button size="sm" variant="secondary" onClick={() => setCreating(true)} data-testid="tickets-empty-create">
            {t('support.createFirst')}
          </Button>
        </div>
      ) : (
        <ul className={styles.list}>
          {tickets.map((tk) => (
            <li key={tk.id}>
              <button
                type="button"
                className={styles.ticket}
                onClick={() => {
                  haptic.light();
                  navigate(`/support/ticket/${tk.id}`);
                }}
                data-testid="ticket-card"
              >
                <span className={styles.ticketHead}>
                  <span className={styles.ticketTitle}>{tk.title || t(`theme.${tk.theme}`)}</span>
                  <span className={`${styles.badge} ${tk.status === 'open' ? styles.badgeOpen : ''}`}>
                    {tk.status === 'open' ? t('support.open') : t('support.closed')}
                  </span>
                </span>
                {tk.lastMessage && <span className={styles.last}>{tk.lastMessage}</span>}
                <span className={styles.date}>{formatDateTime(tk.created_at)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}

      <h2 className={styles.h2}>{t('support.faqTitle')}</h2>
      <Faq />

      <CreateTicket open={creating} onClose={() => setCreating(false)} onCreated={() => void useSupport.getState().load()} />
    </main>
  );
}
