import type { SVGProps } from 'react';

type P = SVGProps<SVGSVGElement> & { size?: number };

/** Line icons for the screens of issue 7 (no emoji: many Android WebViews lack the font). */
function Svg({ size = 22, children, ...rest }: P) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8}
      strokeLinecap="round" strokeLinejoin="round" aria-hidden {...rest}>
      {children}
    </svg>
  );
}

export const IconCalendar = (p: P) => (
  <Svg {...p}><rect x="3.5" y="5" width="17" height="15" rx="2.5" /><path d="M3.5 10h17M8 3v4M16 3v4" /><path d="M9 14.5l2 2 4-4" /></Svg>
);
export const IconMegaphone = (p: P) => (
  <Svg {...p}><path d="M4 10v4a1 1 0 0 0 1 1h2l6 4V5L7 9H5a1 1 0 0 0-1 1z" /><path d="M17 9a4 4 0 0 1 0 6M19.5 6.5a7.5 7.5 0 0 1 0 11" /></Svg>
);
export const IconGift = (p: P) => (
  <Svg {...p}><rect x="3.5" y="8.5" width="17" height="4" rx="1" /><path d="M5 12.5V20h14v-7.5M12 8.5V20" /><path d="M12 8.5C10.5 5 7 4.5 7 6.5S10 8.5 12 8.5zM12 8.5c1.5-3.5 5-4 5-2s-3 2-5 2z" /></Svg>
);
export const IconTarget = (p: P) => (
  <Svg {...p}><circle cx="12" cy="12" r="8.5" /><circle cx="12" cy="12" r="4.5" /><circle cx="12" cy="12" r="1" fill="currentColor" /></Svg>
);
export const IconHandshake = (p: P) => (
  <Svg {...p}><path d="M3 11l4-4 3 1 2-1 3 1 3-1 3 4" /><path d="M7 7l-4 4 6 6 2-1 2 2 2-1 2 1 3-4" /><path d="M9 13l2 2M11 11l3 3M13 10l3 3" /></Svg>
);
export const IconStar = (p: P) => (
  <Svg {...p} fill="currentColor" stroke="none"><path d="M12 2.8l2.8 5.8 6.3.9-4.6 4.4 1.1 6.3L12 17.2l-5.6 3 1.1-6.3L2.9 9.5l6.3-.9z" /></Svg>
);
export const IconNotes = (p: P) => (
  <Svg {...p}><path d="M6 3.5h9l3.5 3.5v13.5H6z" /><path d="M15 3.5V7h3.5M9 11h6M9 14.5h6M9 18h4" /></Svg>
);
export const IconCheck = (p: P) => (
  <Svg {...p}><path d="M5 12.5l4.5 4.5L19 7.5" /></Svg>
);
