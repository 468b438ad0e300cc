import { api } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';
import type { ChatMessage } from './chat';

type Schemas = components['schemas'];

/** The themes the form offers; the document types a ticket's `theme` as a string. */
export type TicketTheme = 'payment' | 'withdraw' | 'bug' | 'other';
export const TICKET_THEMES: readonly TicketTheme[] = ['payment', 'withdraw', 'bug', 'other'];

/** A ticket (`GET /support/tickets/{id}`, `POST /support/tickets`). */
export type Ticket = Schemas['Ticket'];

/** A ticket in the player's list (`GET /support/tickets`), with its last message. */
export type TicketSummary = Schemas['TicketSummary'];

export async function fetchTickets(): Promise<TicketSummary[]> {
  const list = await api.get<TicketSummary[]>('/support/tickets');
  return Array.isArray(list) ? list : [];
}

export const fetchTicket = (id: number | string) => api.get<Ticket>(`/support/tickets/${encodeURIComponent(String(id))}`);

export async function fetchMessages(id: number | string): Promise<ChatMessage[]> {
  const list = await api.get<ChatMessage[]>(`/support/tickets/${encodeURIComponent(String(id))}/messages`);
  return Array.isArray(list) ? list : [];
}

/** `POST /support/tickets`'s body (`Create`), hand-written: narrower than the document's (a theme of the form's, a message). */
export interface NewTicket {
  theme: TicketTheme;
  item_id?: number;
  title?: string;
  message: string;
}

export const createTicket = (t: NewTicket) => api.post<Schemas['Created']>('/support/tickets', t);

export const sendMessage = (id: number | string, message: string) =>
  api.post<Schemas['Added']>(`/support/tickets/${encodeURIComponent(String(id))}/messages`, { message });

export const closeTicket = (id: number | string) =>
  api.post<Schemas['Ok']>(`/support/tickets/${encodeURIComponent(String(id))}/close`);
