/** The rewards feature's public entry (daily reward, streak, tasks). */
export { checkSubscription } from './api';
export { DailySheet } from './components/daily-sheet';
export { IconCalendar, IconCheck, IconHandshake, IconMegaphone, IconNotes, IconStar, IconTarget } from './components/icons';
export { useRewards } from './store';
