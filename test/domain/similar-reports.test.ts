import { describe, expect, it } from 'vitest';
import { sameAsset, significantWords, similarity } from '../../src/core/domain/similar-reports';

describe('duplicate hint scoring', () => {
  it('keeps the words worth matching', () => {
    expect(significantWords('IDOR in the /api/orders endpoint of the shop')).toEqual([
      'endpoint',
      'orders',
      'idor',
      'shop',
      'api',
    ]);
  });

  it('knows the same asset written differently', () => {
    expect(sameAsset('https://shop.example.com/cart', 'shop.example.com')).toBe(true);
    expect(sameAsset('Android app com.example.shop', 'com.example.shop (android app)')).toBe(true);
    expect(sameAsset('Login form', 'login form/')).toBe(true);
    expect(sameAsset('https://shop.example.com', 'https://api.example.com')).toBe(false);
  });

  it('calls close the same asset or half of the title words', () => {
    const draft = { asset: 'https://shop.example.com/cart', titleWords: 4 };
    expect(
      similarity(draft, { id: 'a', asset: 'shop.example.com', titleWordsMatched: 0 })?.reasons,
    ).toEqual(['same asset']);
    expect(
      similarity(draft, { id: 'b', asset: 'other.example.com', titleWordsMatched: 2 })?.reasons,
    ).toEqual(['similar title (2 of 4 words)']);
    expect(
      similarity(draft, { id: 'c', asset: 'other.example.com', titleWordsMatched: 1 }),
    ).toBeNull();
    expect(
      similarity({ asset: '', titleWords: 1 }, { id: 'd', asset: '', titleWordsMatched: 1 })
        ?.reasons,
    ).toEqual(['similar title (1 of 1 words)']);
  });
});
