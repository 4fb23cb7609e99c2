// Words on consent dialogs, as data: what marks a dialog as a cookie or privacy notice, and the buttons
// that decline or close one, in the languages most consent managers ship. Matched case-insensitively
// against a button's text, aria-label or value after trimming; "accept" wording is never clicked.

/** Text that marks a dialog or bar as a consent notice. */
// Cookie and consent words only: "privacy" or "Datenschutz" also name the privacy-policy link of every
// site header and footer, which must stay.
export const CONSENT_WORDS = [
  'cookie',
  'consent',
  'gdpr',
  'einwilligung',
  'consentement',
  'consentimiento',
  'consenso',
  'toestemming',
  'consentimento',
  'zgod',
  'samtykke',
  'samtycke',
  'kakor',
] as const;

/** Buttons that decline, or keep only what is necessary: clicked first. */
export const REJECT_PHRASES = [
  'reject',
  'reject all',
  'reject all cookies',
  'decline',
  'decline all',
  'deny',
  'deny all',
  'refuse',
  'refuse all',
  'disagree',
  'i do not agree',
  "don't accept",
  'do not accept',
  'necessary only',
  'only necessary',
  'only necessary cookies',
  'use necessary cookies only',
  'strictly necessary only',
  'essential only',
  'only essential',
  'essential cookies only',
  'continue without accepting',
  'ablehnen',
  'alle ablehnen',
  'nur notwendige',
  'nur notwendige cookies',
  'nur erforderliche',
  'nur essenzielle',
  'refuser',
  'tout refuser',
  'continuer sans accepter',
  'rechazar',
  'rechazar todo',
  'rechazar todas',
  'solo necesarias',
  'rifiuta',
  'rifiuta tutto',
  'solo necessari',
  'weigeren',
  'alles weigeren',
  'alleen noodzakelijk',
  'rejeitar',
  'rejeitar tudo',
  'recusar',
  'odrzuć',
  'odrzuć wszystkie',
  'avvisa',
  'avvisa alla',
  'afvis',
  'afvis alle',
] as const;

/** Buttons that close a dialog without answering it: clicked when there is no decline button. */
export const CLOSE_PHRASES = ['close', 'dismiss', 'no thanks', 'not now', 'schließen', 'fermer', 'cerrar', 'chiudi', 'sluiten', 'fechar', 'zamknij', 'stäng', 'luk', '×', '✕', 'x'] as const;
