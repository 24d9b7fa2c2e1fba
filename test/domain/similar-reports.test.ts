import { describe, expect, it } from 'vitest';
import { rankSimilar, sameAsset, significantWords } from '../../src/engine/domain/similar-reports';

describe('duplicate hint scoring', () => {
  it.each([
    [
      'keeps the words worth matching',
      'IDOR in the /api/orders endpoint of the shop',
      ['endpoint', 'orders', 'idor', 'shop', 'api'],
    ],
    [
      'leaves URL and domain parts out of the words',
      'XSS on https://www.shop.example.com/search.php',
      ['example', 'search', 'shop', 'xss'],
    ],
  ])('%s', (_what, title, words) => {
    expect(significantWords(title)).toEqual(words);
  });

  it('knows the same asset written differently', () => {
    expect(sameAsset('https://shop.example.com/cart', 'shop.example.com')).toBe(true);
    expect(sameAsset('Android app com.example.shop', 'com.example.shop (android app)')).toBe(true);
    expect(sameAsset('Login form', 'login form/')).toBe(true);
    expect(sameAsset('https://shop.example.com', 'https://api.example.com')).toBe(false);
  });

  const host = 'https://shop.example.com/';
  const mine = [
    { id: 'idor', title: 'IDOR on /api/orders exposes other customers orders', asset: host },
    { id: 'xss', title: 'Stored XSS in product review body', asset: host },
    { id: 'csrf', title: 'CSRF on email change form', asset: host },
    { id: 'redirect', title: 'Open redirect via returnTo parameter on login', asset: host },
    { id: 'ssrf', title: 'SSRF in image import fetches internal metadata', asset: host },
    { id: 'cors', title: 'Misconfigured CORS allows any origin with credentials', asset: host },
  ];

  it('another bug on the same host is no duplicate; a reworded one is, first', () => {
    const unrelated = rankSimilar(
      { title: 'Rate limit missing on password reset', asset: 'https://shop.example.com/reset' },
      mine,
    );
    expect(unrelated).toEqual([]);
    const reworded = rankSimilar(
      { title: 'Orders of other customers readable through /api/orders (IDOR)', asset: host },
      mine,
    );
    expect(reworded.map((r) => r.id)).toEqual(['idor']);
    expect(reworded[0]?.reasons).toEqual([
      'same asset',
      expect.stringMatching(
        /^shares "customers", "orders", "other", "idor", "api" \(\d+% of the title\)$/,
      ),
    ]);
  });

  it('a title with every word of an existing report ranks above partial matches', () => {
    const partial = Array.from({ length: 10 }, (_, i) => ({
      id: `p${i}`,
      title: `Stored XSS in product review note ${i}`,
      asset: host,
    }));
    const exact = {
      id: 'exact',
      title: 'Stored XSS product review title',
      asset: 'other.example.org',
    };
    const ranked = rankSimilar({ title: 'Stored XSS product review title', asset: host }, [
      ...partial,
      exact,
    ]);
    expect(ranked[0]?.id).toBe('exact');
  });
});
