/** The inventory feature's public entry. */
export { sellSkin, shareSkin, soldTogether } from './actions';
export { fetchItem, fetchPublicItem, requestWithdrawal, type InventoryItem, type PublicItem } from './api';
export { SkinCard } from './components/skin-card';
export { TradeHelp } from './components/trade-help';
export {
  canTrade,
  capitalize,
  filterByTab,
  isError,
  isGone,
  itemNames,
  ownerName,
  priceValue,
  reasonKey,
  showWithdraw,
  skinLabel,
  splitMarketName,
  type SkinTab,
} from './status';
export { useInventory } from './store';
export { awaitsAcceptance, deliveryKey, DELIVERY_STATES, ensureDeliveryTexts, STEAM_INCOMING_OFFERS_URL } from './delivery';
