import { api } from '../../lib/api-client';
import type { ChatMessage } from './chat';

export type TicketTheme = 'payment' | 'withdraw' | 'bug' | 'other';
export const TICKET_THEMES: readonly TicketTheme[] = ['payment', 'withdraw', 'bug', 'other'];

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

export const createTicket = (t: NewTicket) => api.post<{ success: boolean; ticket?: Ticket }>('/support/tickets', t);

export const sendMessage = (id: number | string, message: string) =>
  api.post<unknown>(`/support/tickets/${encodeURIComponent(String(id))}/messages`, { message });

export const closeTicket = (id: number | string) =>
  api.post<unknown>(`/support/tickets/${encodeURIComponent(String(id))}/close`);
