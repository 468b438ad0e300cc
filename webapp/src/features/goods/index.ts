/** The goods feature's public entry: real skins as the screens show them (lazy screens only). */
export { BonusNote } from './components/bonus-note';
export { DeliveryNote } from './components/delivery-note';
export { CaseContents, type ContentsItem } from './components/case-contents';
export { FloatBar } from './components/float-bar';
export { ItemMarks } from './components/marks';
export { caseTitle, goodsLabel, goodsNames, groupByTier, isSpecial, priceRange, SKIN_SORTS, sortSkins, type SkinSort } from './goods';
export { exteriorOf, EXTERIORS, formatFloat, isExterior, WEAR_BANDS, wearRange, type Exterior } from './wear';
export { CONDITIONS, DEFAULT_CONDITION, RARITIES, rarityColor, rarityKey } from './rarity';
export { ensureGoodsTexts } from './texts';
