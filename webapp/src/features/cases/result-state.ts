import type { InventoryItem } from '../inventory';

/**
 * What the case screen hands the result screens when it navigates (router state): the case
 * screen writes it, `/case-result` and `/case-results` read it. It lives with the cases feature,
 * not in either screen, so neither screen imports the other.
 */

/** Navigation state the result screen reads (spec: the won weapon, the case id and its cost). */
export interface CaseResultState {
  weapon: InventoryItem;
  caseId: string;
  caseCost: number;
}

/** Navigation state of the result screen of several opened at once: every won skin, in draw order. */
export interface CaseResultsState {
  weapons: InventoryItem[];
  caseId: string;
  /** The price of one case. */
  caseCost: number;
}
