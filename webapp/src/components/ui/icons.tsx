import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement> & { size?: number };

function Svg({ size = 24, children, ...rest }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8}
      strokeLinecap="round" strokeLinejoin="round" aria-hidden {...rest}>
      {children}
    </svg>
  );
}

export const IconToken = (p: IconProps) => (
  <Svg {...p}><circle cx="12" cy="12" r="8.5" /><path d="M9.5 8.5h5M9.5 8.5v7M9.5 12h4" /></Svg>
);
export const IconStore = (p: IconProps) => (
  <Svg {...p}><path d="M4 8h16v11a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1z" /><path d="M3 8l2-4h14l2 4" /><path d="M10 12h4" /></Svg>
);
export const IconSkins = (p: IconProps) => (
  <Svg {...p}><path d="M3 14l7-7h8l2-2 1 1-2 2v3l-3 3h-3l-4 4H5l1-3z" /><path d="M13 11l2 2" /></Svg>
);
export const IconFriends = (p: IconProps) => (
  <Svg {...p}><circle cx="9" cy="8" r="3.2" /><path d="M3 19c.6-3.3 3-5 6-5s5.4 1.7 6 5" /><circle cx="17" cy="9" r="2.4" /><path d="M16 14c2.6 0 4.3 1.5 5 4" /></Svg>
);
export const IconProfile = (p: IconProps) => (
  <Svg {...p}><circle cx="12" cy="8" r="3.8" /><path d="M4.5 20c.8-4 3.7-6 7.5-6s6.7 2 7.5 6" /></Svg>
);
export const IconChevron = (p: IconProps) => (
  <Svg {...p}><path d="M9 5l7 7-7 7" /></Svg>
);
export const IconBack = (p: IconProps) => (
  <Svg {...p}><path d="M15 5l-7 7 7 7" /></Svg>
);
export const IconWrench = (p: IconProps) => (
  <Svg {...p}><path d="M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.77-3.77a6 6 0 0 1-7.94 7.94l-6.91 6.91a2.12 2.12 0 0 1-3-3l6.91-6.91a6 6 0 0 1 7.94-7.94z" /></Svg>
);
export const IconTelegram = (p: IconProps) => (
  <Svg {...p}><path d="M21 4L3 11l6 2 2 6 3-4 5 4z" /><path d="M9 13l8-6" /></Svg>
);
export const IconLink = (p: IconProps) => (
  <Svg {...p}><path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" /><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" /></Svg>
);
export const IconChat = (p: IconProps) => (
  <Svg {...p}><path d="M4 5h16v11H9l-5 4z" /></Svg>
);
export const IconUsers = IconFriends;
export const IconShield = (p: IconProps) => (
  <Svg {...p}><path d="M12 3l8 3v6c0 4.5-3.4 8-8 9-4.6-1-8-4.5-8-9V6z" /><path d="M8.5 12l2.5 2.5 4.5-5" /></Svg>
);
export const IconCart = (p: IconProps) => (
  <Svg {...p}><path d="M3 4h2l2.4 11h10.2L20 8H6.2" /><circle cx="9" cy="19" r="1.4" /><circle cx="17" cy="19" r="1.4" /></Svg>
);
export const IconAlert = (p: IconProps) => (
  <Svg {...p}><circle cx="12" cy="12" r="9" /><path d="M12 7.5v5.5M12 16.5v.01" /></Svg>
);
