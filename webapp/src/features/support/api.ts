import { api } from '../../lib/api-client';
import type { components } from '../../lib/api-types.gen';
import type { ChatMessage } from './chat';

export type TicketTheme = 'payment' | 'withdraw' | 'bug' | 'other';
export const TICKET_THEMES: readonly TicketTheme[] = ['payment', 'withdraw', 'bug', 'other'];

// TODO(contract): a ticket of GET /support/tickets and GET /support/tickets/{id} once typed
export interface Ticket {
  id: number;
  title: string | null;
  theme: TicketTheme;
  status: 'open' | 'closed' | string;
  lastMessage?: string | null;
  created_at: string;
}

export async function fetchTickets(): Promise<Ticket[]> {
  const list = await api.get<Ticket[]>('/support/tickets');
  return Array.isArray(list) ? list : [];
}

export const fetchTicket = (id: number | string) => api.get<Ticket>(`/support/tickets/${encodeURIComponent(String(id))}`);

export async function fetchMessages(id: number | string): Promise<ChatMessage[]> {
  const list = await api.get<ChatMessage[]>(`/support/tickets/${encodeURIComponent(String(id))}/messages`);
  return Array.isArray(list) ? list : [];
}

export interface NewTicket {
  theme: TicketTheme;
  item_id?: number;
  title?: string;
  message: string;
}

// TODO(contract): the answer of POST /support/tickets once typed
export const createTicket = (t: NewTicket) => api.post<{ success: boolean; ticket?: Ticket }>('/support/tickets', t);

// TODO(contract): the answer of POST /support/tickets/{id}/messages once typed
export const sendMessage = (id: number | string, message: string) =>
  api.post<unknown>(`/support/tickets/${encodeURIComponent(String(id))}/messages`, { message });

export const closeTicket = (id: number | string) =>
  api.post<components['schemas']['Ok']>(`/support/tickets/${encodeURIComponent(String(id))}/close`);
