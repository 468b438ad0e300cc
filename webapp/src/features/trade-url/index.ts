/** The trade-URL feature's public entry. */
export { getTradeUrl, putTradeUrl } from './api';
export { tradeUrlProblem, tradeUrlProblemKey, type TradeUrlProblem } from './problem';
export { isValidTradeUrl, TRADE_URL_HELP } from './validate';
export { ensureTradeUrlTexts } from './texts';
