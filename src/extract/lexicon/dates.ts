// Vocabulary as data: the words of dates and of the lines around them ("Published on 3 May 2021"), per
// language. Entries are words or small regular-expression fragments; English and German share their
// abbreviations ("jan", "feb", "mar"), so those stand once, under en.

/** Month names and their abbreviations. */
export const MONTH_NAMES = {
  en: [
    'jan(uar|uary)?',
    'feb(ruar|ruary)?',
    'mär(z)?',
    'mar(ch)?',
    'apr(il)?',
    'mai',
    'may',
    'jun[ei]?',
    'jul[iy]?',
    'aug(ust)?',
    'sep(t(ember)?)?',
    'o[ck]t(ober)?',
    'nov(ember)?',
    'de[cz](ember)?',
  ],
  fr: ['janvier', 'février', 'mars', 'avril', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'],
  es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
  it: ['gennaio', 'febbraio', 'aprile', 'maggio', 'giugno', 'luglio', 'settembre', 'ottobre', 'dicembre'],
  pl: ['stycznia', 'lutego', 'marca', 'kwietnia', 'maja', 'czerwca', 'lipca', 'sierpnia', 'września', 'października', 'listopada', 'grudnia'],
  nl: ['januari', 'februari', 'maart', 'mei', 'juni', 'juli', 'augustus', 'oktober'],
} as const;

/** Words that surround a date in a byline or dateline: what is left of such a line is only these. */
export const DATE_LINE_WORDS = {
  en: ['published', 'updated', 'posted', 'last', 'modified', 'on', 'at', 'by'],
  de: ['am', 'um', 'uhr', 'von', 'vom', 'veröffentlicht', 'aktualisiert', 'publiziert', 'erstellt', 'geändert', 'stand'],
  fr: ['publié', 'mis à jour', 'le'],
  es: ['publicado', 'actualizado'],
  it: ['pubblicato', 'aggiornato'],
  pl: ['publikacja', 'opublikowano', 'aktualizacja'],
  nl: ['gepubliceerd', 'bijgewerkt'],
  // Labels in several languages, weekdays (en, de) and articles: order in the list does not matter, each
  // word is matched whole.
  labels: ['date', 'datum', 'fecha', 'data', 'news', 'veröffentlichung', 'erschienen'],
  weekdays: [
    'monday',
    'tuesday',
    'wednesday',
    'thursday',
    'friday',
    'saturday',
    'sunday',
    'montag',
    'dienstag',
    'mittwoch',
    'donnerstag',
    'freitag',
    'samstag',
    'sonntag',
  ],
  articles: ['den', 'der', 'the', 'de', 'du', 'il', 'el'],
} as const;

/** English ordinal endings after a day ("May 3rd, 2021"), in this order (the date pattern replaces what it matches). */
export const ORDINAL_SUFFIXES = ['st', 'nd', 'rd', 'th'];

/** What may follow a time of day ("10:27 Uhr", "10:27 pm"), in this order. */
export const TIME_SUFFIXES = ['am', 'pm', 'uhr', 'h'];
