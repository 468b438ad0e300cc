import type { CSSProperties } from 'react';

import styles from './skeleton.module.css';

export interface SkeletonProps {
  width?: number | string;
  height?: number | string;
  radius?: number | string;
  className?: string;
  style?: CSSProperties;
}

/** A shimmering placeholder block (spec: 6 cards for cases and skins, 3 referral rows). */
export function Skeleton({ width = '100%', height = 16, radius = 8, className, style }: SkeletonProps) {
  return (
    <span
      className={`${styles.skeleton} ${className ?? ''}`}
      style={{ width, height, borderRadius: radius, ...style }}
      aria-hidden
      data-skeleton
    />
  );
}

/** `count` placeholder cards in a grid-friendly shape. */
export function SkeletonCards({ count = 6, height = 180 }: { count?: number; height?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <Skeleton key={i} height={height} radius={14} />
      ))}
    </>
  );
}

/** `count` placeholder list rows (avatar + two lines). */
export function SkeletonRows({ count = 3 }: { count?: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className={styles.row}>
          <Skeleton width={40} height={40} radius="50%" />
          <div className={styles.lines}>
            <Skeleton width="60%" height={14} />
            <Skeleton width="35%" height={12} />
          </div>
        </div>
      ))}
    </>
  );
}
