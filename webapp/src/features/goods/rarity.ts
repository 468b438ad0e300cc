/** The CSS colour of a rarity (theme.css defines the palette). */
export function rarityColor(rarity: string | null | undefined): string {
  switch (rarity) {
    case 'consumer':
    case 'industrial':
    case 'milspec':
    case 'restricted':
    case 'classified':
    case 'covert':
      return `var(--c-rarity-${rarity})`;
    case 'extraordinary':
    case 'contraband':
      return 'var(--c-rarity-gold)';
    default:
      return 'var(--c-hint)';
  }
}

export const RARITIES = ['consumer', 'industrial', 'milspec', 'restricted', 'classified', 'covert', 'extraordinary', 'contraband'];

/** The i18n key of a rarity name, or null for an unknown one (then the raw value is shown). */
export const rarityKey = (rarity: string | null | undefined) => (rarity && RARITIES.includes(rarity) ? `rarity.${rarity}` : null);

export const CONDITIONS = ['Factory New', 'Minimal Wear', 'Field-Tested', 'Well-Worn', 'Battle-Scarred'];
/** Spec: condition defaults to Field-Tested. */
export const DEFAULT_CONDITION = 'Field-Tested';
