/** The cases feature's public entry: what screens and other features may use. */
export { fetchCase, openCase, type Case, type CaseItem } from './api';
export { bonusPart, tokensMissing, valueRatio, winTier, type WinTier } from './celebrate';
export { formatChance, OddsList } from './components/odds-list';
export { Roulette } from './components/roulette';
export { canTry, pickByOdds } from './free-try';
export { chancesByRarity } from './odds';
export {
  allDecided,
  choose,
  drawnItems,
  entriesOf,
  keepRest,
  MAX_OPEN_COUNT,
  nextNonce,
  OPEN_COUNTS,
  openCount,
  resultsHeadline,
  sellAllValue,
  sellEach,
  totalPrice,
  undecided,
  type Choice,
  type Drawn,
  type Entry,
} from './multi';
export type { CaseResultState, CaseResultsState } from './result-state';
export { createCaseOpener, newRequestId, type OpenFair } from './open-case';
export { ensureMultiTexts } from './texts';
export type { SpinPhase } from './roulette';
export { skinName, useCases } from './store';
