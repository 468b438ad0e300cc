/** The responsible-play feature's public entry: promo codes, the daily limit, self-exclusion and the player's statistics (lazy screens only). */
export type { ExclusionPeriod, Limits, PlayStats } from './api';
export { BreakNotice, useBreak, type BreakPlace } from './components/break-notice';
export { PromoField } from './components/promo-field';
export { ResponsiblePlay } from './components/responsible-play';
export { appliesAtOnce, isPromoCode, parseLimitInput, promoErrorKey, runningExclusion, spendRoom } from './logic';
export { useResponsible } from './store';
export { ensureResponsibleTexts } from './texts';
