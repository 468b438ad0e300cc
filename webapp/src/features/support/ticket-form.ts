/**
 * The create-ticket form rules of spec sections 4 and 5, pure:
 * - changing the topic clears the item; a non-withdraw topic also clears the message;
 * - choosing a withdraw item prefills the message from a template with its name and id;
 * - the message must not be blank; topic withdraw also needs an item.
 */
import type { TicketTheme } from './api';

export interface TicketForm {
  theme: TicketTheme;
  itemId: number | null;
  message: string;
}

export const emptyForm = (): TicketForm => ({ theme: 'payment', itemId: null, message: '' });

export function changeTheme(form: TicketForm, theme: TicketTheme): TicketForm {
  return { theme, itemId: null, message: theme === 'withdraw' ? form.message : '' };
}

export function chooseItem(form: TicketForm, item: { id: number; name: string }, template: (name: string, id: number) => string): TicketForm {
  return { ...form, itemId: item.id, message: template(item.name, item.id) };
}

export type FormError = 'itemRequired' | 'messageRequired' | null;

export function validate(form: TicketForm): FormError {
  if (form.theme === 'withdraw' && form.itemId === null) return 'itemRequired';
  if (!form.message.trim()) return 'messageRequired';
  return null;
}
