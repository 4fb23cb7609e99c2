// Which countries write a postal code in a given form (postcode-validator's patterns), and how that orders the
// towns of one name beside a code no table confirms (issue 33).
import { describe, expect, it } from 'vitest';
import { codeFormFirst, postalFormFits } from '../../src/geo/place/postal-formats.js';

describe('postalFormFits', () => {
  it.each([
    ['30204', 'ES', true],
    ['30204', 'CO', false],
    ['30204', 'GB', false],
    ['SW1A 2AA', 'GB', true],
    ['1012 AB', 'NL', true],
    ['30204', 'ZZ', null],
  ])('%s in %s → %s', (code, country, fits) => {
    expect(postalFormFits(code, country)).toBe(fits);
  });
});

describe('codeFormFirst', () => {
  const towns = [
    { name: 'a', country: 'CO' },
    { name: 'b', country: 'ES' },
    { name: 'c', country: 'ZZ' },
    { name: 'd', country: 'MX' },
  ];

  it('puts the towns whose country writes codes so (or whose form is unknown) first, each group in its order', () => {
    expect(codeFormFirst(towns, '30204').map((t) => t.name)).toEqual(['b', 'c', 'd', 'a']);
  });

  it('leaves the order when none or all fit', () => {
    const known = towns.filter((t) => t.country !== 'ZZ');
    expect(codeFormFirst(known, 'SW1A 2AA').map((t) => t.name)).toEqual(['a', 'b', 'd']);
    expect(codeFormFirst(towns.slice(1, 2), '30204')).toEqual(towns.slice(1, 2));
  });

  it('takes a country whose codes the data lists outright from `known`', () => {
    const us = [
      { name: 'x', country: 'US' },
      { name: 'y', country: 'ES' },
    ];
    expect(codeFormFirst(us, '30204').map((t) => t.name)).toEqual(['x', 'y']);
    expect(codeFormFirst(us, '30204', (c) => (c === 'US' ? false : null)).map((t) => t.name)).toEqual(['y', 'x']);
  });
});
