// Place names whose accented letters a source lost (U+FFFD in the zipcodes package's Canadian table): put back
// from a vocabulary of accented words, else by French spelling's commonest cases, so no answer carries the
// replacement character.
import { describe, expect, it } from 'vitest';
import { AccentRestorer } from '../../src/geo/place/lost-accents.js';
import { buildPostalTable } from '../../src/geo/place/postal-sources.js';

describe('AccentRestorer', () => {
  const restorer = new AccentRestorer(['Rivière-Saas-et-Gourby', 'Lévis-Saint-Nom', 'Château-Thierry', 'Châteauneuf', "L'Île-Bouchard", 'Adé']);

  it('puts back a word the vocabulary holds, keeping the written case', () => {
    expect(restorer.restore('Rivi\uFFFDre-du-loup')).toBe('Rivière-du-loup');
    expect(restorer.restore('L\uFFFDvis')).toBe('Lévis');
    expect(restorer.restore('Les \uFFFDles-de-la-Madeleine')).toBe('Les Îles-de-la-Madeleine');
  });

  it('takes a known word that begins a longer one, when it is long enough to say', () => {
    expect(restorer.restore('Ch\uFFFDteauguay')).toBe('Châteauguay');
    // "Adé" is a word of the vocabulary, too short to begin "adèle".
    expect(restorer.restore('Saint-ad\uFFFDle')).toBe('Saint-adèle');
  });

  it('falls back on French spelling for words it does not know', () => {
    expect(restorer.restore('La Pocati\uFFFDre')).toBe('La Pocatière');
    expect(restorer.restore('T\uFFFDmiscamingue')).toBe('Témiscamingue');
    expect(restorer.restore('Saint-\uFFFDmile')).toBe('Saint-Émile');
    expect(restorer.restore('Rua A\uFFFDores')).toBe('Rua Açores');
  });

  it('drops a lost character that stood alone, and leaves a name with nothing lost as it is', () => {
    expect(restorer.restore('Bhimasar \uFFFD')).toBe('Bhimasar');
    expect(restorer.restore('Montréal')).toBe('Montréal');
  });
});

describe('the built postal table', () => {
  it('holds no replacement character in any name', () => {
    const table = buildPostalTable();
    const damaged = Object.entries(table).flatMap(([country, codes]) =>
      Object.entries(codes)
        .filter(([, [names]]) => names.includes('\uFFFD'))
        .map(([code, [names]]) => `${country} ${code}: ${names}`),
    );
    expect(damaged).toEqual([]);
    expect(table['CA']?.['J0Y']?.[0]).toBe('Abitibi-Témiscamingue-Est');
  });
});
