// Vocabulary as data: the words of the site's own notices, per language: copyright lines and paywall
// boxes. Entries are phrases or small regular-expression fragments, matched case aside as whole words.

/** A copyright notice: "All rights reserved". */
export const COPYRIGHT_NOTICES = {
  en: ['all rights reserved'],
  de: ['alle rechte vorbehalten'],
  fr: ['tous droits réservés'],
  es: ['todos los derechos reservados'],
  it: ['tutti i diritti riservati'],
  pl: ['wszelkie prawa zastrzeżone'],
} as const;

/** The first half of a paywall box's heading: reading on ("To continue reading, …"). */
export const PAYWALL_READ_ON = {
  en: ['to (continue|keep) reading', 'continue reading (for free|with)'],
  fr: ['pour lire la suite'],
  de: ['um (den |diesen )?(artikel |beitrag )?weiterzulesen'],
  es: ['para (seguir|continuar) leyendo'],
  it: ['per continuare a leggere'],
} as const;

/** Its second half: an account or a subscription ("… create your free account"). */
export const PAYWALL_ACCOUNT = {
  en: ['account', 'subscri\\w*', 'sign (in|up)', 'log ?in'],
  fr: ['compte', 'abonn\\w*', 'connect\\w*'],
  de: ['konto', 'registr\\w*', 'anmelden'],
  es: ['cuenta', 'suscr\\w*'],
} as const;

/** Picture agencies and stock libraries named in a caption's credit: a credit line, not prose. */
export const PICTURE_AGENCIES = [
  'shutterstock',
  'getty ?images',
  'istock(photo)?',
  'adobe ?stock',
  'stock\\.adobe',
  'picture[- ]alliance',
  'unsplash',
  'imago images',
  'dpa-?bildfunk',
];

/** Social networks named in a "follow us on …" pitch. */
export const SOCIAL_NETWORKS = ['twitter', 'facebook', 'instagram', 'linkedin', 'youtube', 'tiktok'];

/** A skip link's words, as its text opens: "Skip to content", "Jump to navigation", "Go to main menu". */
export const SKIP_LINK_VERBS = ['skip', 'jump', 'go'];
/** …followed by this; "Skip" alone opens one too ("Skip navigation"). */
export const SKIP_LINK_TO = 'to';
export const SKIP_LINK_ALONE = 'skip';

/** Words of a <noscript> notice asking to turn scripts on ("Please enable JavaScript in your browser"). */
export const NOSCRIPT_NOTICE_WORDS = ['javascript', '\\bjs\\b', 'browser'];
