// Which countries write their postal codes in a given form, from postcode-validator's per-country patterns
// (MIT, © Melwyn Furtado; the forms the Universal Postal Union and Google's address data publish). A code
// beside a town that no table confirms still says which of the towns of that name is meant: "30204 Cartagena"
// is Spain's (five digits), not Colombia's (six); "Belvedere 11900" is no English town (UK codes hold letters).
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';

/** Whether `country` writes postal codes like `code`; null when no pattern for it is known. */
export function postalFormFits(code: string, country: string): boolean | null {
  if (!postcodeValidatorExistsForCountry(country)) return null;
  return postcodeValidator(code, country);
}

/**
 * The places whose country writes codes of this form first, the others after, each group in its order (by
 * importance, as given). `known` overrides the pattern for a country whose codes the data lists outright (a
 * five-digit code that is no US ZIP is no US code, whatever its form). Unchanged when none or all fit: the
 * form then says nothing about which place is meant.
 */
export function codeFormFirst<T extends { country: string }>(places: T[], code: string, known: (country: string) => boolean | null = () => null): T[] {
  const misfit = (p: T) => (known(p.country) ?? postalFormFits(code, p.country)) === false;
  const fit = places.filter((p) => !misfit(p));
  if (fit.length === 0 || fit.length === places.length) return places;
  return [...fit, ...places.filter(misfit)];
}
