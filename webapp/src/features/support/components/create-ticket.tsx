import { useEffect, useState } from 'react';

import { Button, Img, Modal, toast } from '../../../components/ui';
import { useT } from '../../../i18n';
import { haptic } from '../../../lib/telegram';
import { skinLabel, useInventory } from '../../inventory';
import { createTicket, TICKET_THEMES, type TicketTheme } from '../api';
import { changeTheme, chooseItem, emptyForm, validate } from '../ticket-form';
import styles from './create-ticket.module.css';
import { ensureSupportTexts } from '../texts';
import { itemKind } from '../../../lib/item-kind';

/** The create-ticket modal: topic, the item for a withdraw topic, the message. */
export function CreateTicket({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  ensureSupportTexts();
  const t = useT();
  const items = useInventory((s) => s.items);
  const [form, setForm] = useState(emptyForm);
  const [sending, setSending] = useState(false);

  // Spec: the item list is loaded from the user's items if it is empty.
  useEffect(() => {
    if (open && form.theme === 'withdraw' && items.length === 0) void useInventory.getState().load(true);
  }, [open, form.theme, items.length]);

  const close = () => {
    setForm(emptyForm());
    onClose();
  };

  const send = async () => {
    if (sending) return;
    const problem = validate(form);
    if (problem) {
      toast.error(t(`support.${problem}`));
      return;
    }
    setSending(true);
    try {
      await createTicket({
        theme: form.theme,
        message: form.message.trim(),
        ...(form.theme === 'withdraw' && form.itemId !== null ? { item_id: form.itemId } : {}),
      });
      haptic.success();
      toast.success(t('support.created'));
      setForm(emptyForm());
      onClose();
      onCreated();
    } catch {
      haptic.error();
      toast.error(t('support.createError'));
    } finally {
      setSending(false);
    }
  };

  // The Steam-exact name goes to support labelled (it is what the market buys); the player reads their own language.
  const template = (name: string, id: number) => {
    const steam = items.find((i) => i.id === id)?.marketHashName;
    return steam ? t('support.withdrawTemplateSteam', { name, id, steam }) : t('support.withdrawTemplate', { name, id });
  };
  return (
    <Modal open={open} onClose={close} dismissible={!sending} title={t('support.modalTitle')}>
      <div className={styles.form} data-testid="create-ticket">
        <label className={styles.label} htmlFor="ticket-topic">
          {t('support.topic')}
        </label>
        <select
          id="ticket-topic"
          className={`field ${styles.select}`}
          value={form.theme}
          onChange={(e) => setForm((f) => changeTheme(f, e.target.value as TicketTheme))}
          data-testid="ticket-topic"
        >
          {TICKET_THEMES.map((th) => (
            <option key={th} value={th}>
              {t(`theme.${th}`)}
            </option>
          ))}
        </select>

        {form.theme === 'withdraw' && (
          <>
            <span className={styles.label}>{t('support.item')}</span>
            <ul className={styles.items} role="listbox" aria-label={t('support.chooseItem')} data-testid="ticket-items">
              {items.length === 0 && <li className={styles.noItems}>{t('support.noItems')}</li>}
              {items.map((it) => {
                const selected = form.itemId === it.id;
                const name = skinLabel(it);
                return (
                  <li key={it.id}>
                    <button
                      type="button"
                      role="option"
                      aria-selected={selected}
                      className={`${styles.item} ${selected ? styles.selected : ''}`}
                      onClick={() => setForm((f) => chooseItem(f, { id: it.id, name }, template))}
                    >
                      <Img src={it.iconUrl} alt="" className={styles.itemImg} rarity={it.rarity} kind={itemKind(it)} />
                      <span className={styles.itemName}>{name}</span>
                      <span className={styles.itemId}>#{it.id}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          </>
        )}

        <label className={styles.label} htmlFor="ticket-message">
          {t('support.message')}
        </label>
        <textarea
          id="ticket-message"
          className={`field ${styles.area}`}
          rows={4}
          value={form.message}
          placeholder={t('support.messagePlaceholder')}
          onChange={(e) => {
            const message = e.target.value;
            setForm((f) => ({ ...f, message }));
          }}
          data-testid="ticket-message"
        />
        <div className={styles.buttons}>
          <Button variant="secondary" onClick={close} disabled={sending}>
            {t('common.cancel')}
          </Button>
          <Button onClick={send} loading={sending} data-testid="ticket-send">
            {t('support.send')}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
