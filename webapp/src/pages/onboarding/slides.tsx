/** The onboarding artwork: small inline SVGs, so the first screen needs no image requests. */
export function CaseArt() {
  return (
    <svg viewBox="0 0 160 120" aria-hidden>
      <defs>
        <linearGradient id="ob-case" x1="0" x2="1" y1="0" y2="1">
          <stop offset="0" stopColor="#f5a524" />
          <stop offset="1" stopColor="#e2552b" />
        </linearGradient>
      </defs>
      <rect x="30" y="40" width="100" height="62" rx="10" fill="url(#ob-case)" />
      <rect x="24" y="30" width="112" height="22" rx="8" fill="#ffc861" />
      <rect x="72" y="30" width="16" height="72" fill="#1b1b1f" opacity="0.25" />
      <circle cx="80" cy="66" r="9" fill="#1b1b1f" opacity="0.35" />
      <path d="M52 18l6 10M80 8v14M108 18l-6 10" stroke="#ffc861" strokeWidth="4" strokeLinecap="round" />
    </svg>
  );
}

export function SkinArt() {
  return (
    <svg viewBox="0 0 160 120" aria-hidden>
      <defs>
        <linearGradient id="ob-skin" x1="0" x2="1">
          <stop offset="0" stopColor="#8847ff" />
          <stop offset="1" stopColor="#d32ce6" />
        </linearGradient>
      </defs>
      <path d="M14 70l10-14h70l8-8h30l6 8-6 8h-24l-6 10H60l-14 22H26l8-18z" fill="url(#ob-skin)" />
      <rect x="96" y="44" width="8" height="10" fill="#fff" opacity="0.6" />
      <path d="M118 92l14 14M132 92l-14 14" stroke="#31b545" strokeWidth="5" strokeLinecap="round" opacity="0" />
      <path d="M112 92l10 10 18-22" stroke="#31b545" strokeWidth="6" fill="none" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function CoinsArt() {
  return (
    <svg viewBox="0 0 160 120" aria-hidden>
      <ellipse cx="62" cy="84" rx="34" ry="12" fill="#c07d10" />
      <rect x="28" y="60" width="68" height="24" fill="#c07d10" />
      <ellipse cx="62" cy="60" rx="34" ry="12" fill="#f5a524" />
      <circle cx="108" cy="52" r="30" fill="#f5a524" />
      <circle cx="108" cy="52" r="22" fill="#ffc861" />
      <path d="M100 40h16M100 40v24M100 52h12" stroke="#c07d10" strokeWidth="5" strokeLinecap="round" />
    </svg>
  );
}
