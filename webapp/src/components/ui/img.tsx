import { useEffect, useState, type ImgHTMLAttributes } from 'react';

import { PLACEHOLDER_IMAGE, resolveImageUrl } from '../../lib/image';
import styles from './img.module.css';

export interface ImgProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> {
  /** Relative (API host), absolute, or Steam CDN path: see `resolveImageUrl`. */
  src: string | null | undefined;
}

/**
 * An image that resolves paths by the spec's item-image rule and falls back to the placeholder
 * when it fails; if even the placeholder fails, a neutral box stays in its place.
 */
export function Img({ src, alt = '', className, loading = 'lazy', decoding = 'async', ...rest }: ImgProps) {
  const resolved = resolveImageUrl(src);
  const [stage, setStage] = useState<'main' | 'placeholder' | 'none'>(resolved === PLACEHOLDER_IMAGE ? 'placeholder' : 'main');
  useEffect(() => {
    setStage(resolved === PLACEHOLDER_IMAGE ? 'placeholder' : 'main');
  }, [resolved]);
  if (stage === 'none') {
    return <span className={`${styles.fallback} ${className ?? ''}`} role="img" aria-label={alt} data-img-fallback />;
  }
  return (
    <img
      {...rest}
      className={className}
      alt={alt}
      loading={loading}
      decoding={decoding}
      src={stage === 'main' ? resolved : PLACEHOLDER_IMAGE}
      data-placeholder={stage === 'placeholder' || undefined}
      onError={() => setStage((s) => (s === 'main' ? 'placeholder' : 'none'))}
    />
  );
}
