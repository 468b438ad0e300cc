import { useEffect, useState, type ImgHTMLAttributes } from 'react';

import { PLACEHOLDER_IMAGE, resolveImageUrl } from '../../lib/image';
import { SILHOUETTES, type ItemKind } from '../../lib/item-kind';
import styles from './img.module.css';

export interface ImgProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> {
  /** Relative (API host), absolute, or Steam CDN path: see `resolveImageUrl`. */
  src: string | null | undefined;
  /** The item's rarity: the fallback is drawn in its colour. */
  rarity?: string | null;
  /** What the picture shows (`itemKind`): the fallback is that kind's silhouette. */
  kind?: ItemKind;
}

/** The CSS colour of a rarity (theme.css's palette); features/cases has the same rule for screens. */
function rarityVar(rarity: string | null | undefined): string {
  if (rarity === 'extraordinary' || rarity === 'contraband') return 'var(--c-rarity-gold)';
  if (rarity && /^(consumer|industrial|milspec|restricted|classified|covert)$/.test(rarity)) return `var(--c-rarity-${rarity})`;
  return 'var(--c-hint)';
}

/**
 * A lazily loaded picture whose box is reserved by its class (width and height); when it is
 * missing or cannot load (offline, the shop's picture cache without it), a rarity-coloured glow
 * with the item type's silhouette draws in the same box instead: no broken-image icon, no layout
 * shift.
 */
export function Img({ src, alt = '', className, loading = 'lazy', decoding = 'async', rarity, kind = 'rifle', ...rest }: ImgProps) {
  const resolved = resolveImageUrl(src);
  const missing = resolved === PLACEHOLDER_IMAGE;
  const [failed, setFailed] = useState(missing);
  useEffect(() => {
    setFailed(missing);
  }, [resolved, missing]);
  if (failed) {
    return (
      <span
        className={`${styles.fallback} ${className ?? ''}`}
        style={{ ['--fb' as string]: rarityVar(rarity) }}
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        aria-hidden={alt ? undefined : true}
        data-img-fallback=""
        data-rarity={rarity ?? undefined}
        data-kind={kind}
      >
        <svg viewBox="0 0 64 24" className={styles.silhouette} aria-hidden focusable="false">
          <path fillRule="evenodd" d={SILHOUETTES[kind]} />
        </svg>
      </span>
    );
  }
  return (
    <img
      {...rest}
      className={`${styles.img} ${className ?? ''}`}
      alt={alt}
      loading={loading}
      decoding={decoding}
      src={resolved}
      onError={() => setFailed(true)}
    />
  );
}
