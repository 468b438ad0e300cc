/** The support feature's public entry (tickets, chat, FAQ). */
export { closeTicket, fetchMessages, fetchTicket, sendMessage, type Ticket } from './api';
export { chatRows, clampInputHeight, type ChatMessage, type DayLabel } from './chat';
export { CreateTicket } from './components/create-ticket';
export { Faq } from './components/faq';
export { useSupport } from './store';
export { ensureSupportTexts } from './texts';
