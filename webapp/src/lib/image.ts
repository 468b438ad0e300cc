/** Shown when an image is missing or fails to load (served by `fragbox` from the catalog). */
export const PLACEHOLDER_IMAGE = '/catalog/images/placeholder.svg';

/** Steam's item image CDN; `economy/image/<hash>` paths live there. */
export const STEAM_CDN = 'https://community.cloudflare.steamstatic.com';

const steamHost =
  /(?:^|\/)((?:steamcommunity-a\.akamaihd\.net|steamcdn-a\.akamaihd\.net|community\.(?:cloudflare|akamai|fastly)\.steamstatic\.com|cdn\.(?:cloudflare\.)?steamstatic\.com)\/.*)$/i;
const apiPrefix = /^\/?api(?:\/v\d+)?\//i;

/**
 * Spec section 3, item images: a path already starting with http(s) stays as is; a path from
 * the game platform's CDN has the API prefix stripped (and points at the CDN); any other
 * relative path becomes an absolute address on the API host (our own origin).
 */
export function resolveImageUrl(path: string | null | undefined, apiOrigin: string = defaultOrigin()): string {
  const p = (path ?? '').trim();
  if (!p) return PLACEHOLDER_IMAGE;
  if (/^https?:\/\//i.test(p)) return p;
  if (p.startsWith('//')) return `https:${p}`;
  if (p.startsWith('data:') || p.startsWith('blob:')) return p;
  const cdn = steamHost.exec(p);
  if (cdn) return `https://${cdn[1]}`;
  const stripped = p.replace(apiPrefix, '');
  if (/^\/?economy\/image\//i.test(stripped)) {
    return `${STEAM_CDN}/${stripped.replace(/^\//, '')}`;
  }
  return `${apiOrigin.replace(/\/$/, '')}/${p.replace(/^\//, '')}`;
}

function defaultOrigin(): string {
  return typeof window !== 'undefined' && window.location ? window.location.origin : '';
}
