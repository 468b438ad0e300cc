import { describe, expect, it } from 'vitest';

import { PLACEHOLDER_IMAGE, resolveImageUrl, STEAM_CDN } from './image';

const api = 'https://app.example.com';

describe('item image paths (spec section 3)', () => {
  it('makes a relative path absolute on the API host', () => {
    expect(resolveImageUrl('/catalog/images/items/ak47.svg', api)).toBe(`${api}/catalog/images/items/ak47.svg`);
    expect(resolveImageUrl('catalog/images/a.svg', `${api}/`)).toBe(`${api}/catalog/images/a.svg`);
  });

  it('keeps http and https addresses as they are', () => {
    expect(resolveImageUrl('https://cdn.example.org/a.png', api)).toBe('https://cdn.example.org/a.png');
    expect(resolveImageUrl('http://cdn.example.org/a.png', api)).toBe('http://cdn.example.org/a.png');
  });

  it('strips the API prefix from a game-platform CDN path', () => {
    expect(resolveImageUrl('/api/v1/economy/image/abcDEF123/360fx360f', api)).toBe(`${STEAM_CDN}/economy/image/abcDEF123/360fx360f`);
    expect(resolveImageUrl('/api/community.cloudflare.steamstatic.com/economy/image/xyz', api)).toBe(
      'https://community.cloudflare.steamstatic.com/economy/image/xyz',
    );
    expect(resolveImageUrl('economy/image/hash', api)).toBe(`${STEAM_CDN}/economy/image/hash`);
  });

  it('falls back to the placeholder for a missing path', () => {
    expect(resolveImageUrl('', api)).toBe(PLACEHOLDER_IMAGE);
    expect(resolveImageUrl(null, api)).toBe(PLACEHOLDER_IMAGE);
    expect(resolveImageUrl(undefined, api)).toBe(PLACEHOLDER_IMAGE);
  });
});
