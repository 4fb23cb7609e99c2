// Vocabulary as data: the words of pictures' captions and credits, per language, for the credits rule
// (credits.ts). Entries are words or small regular-expression fragments (non-capturing groups only: the
// rule reads where a credit starts), matched case aside.
import type { WordTable } from './compile.js';

/** Words that introduce a picture's credit ("Foto: …", "Photo by …", "Fuente: …"). */
export const CREDIT_MARKERS: WordTable = {
  multi: [
    'fotos?',
    'photos?',
    'photograph(?:y|ie)?',
    'image(?:s|n|m)?',
    'cr[ée]dits?',
    'cr[ée]ditos?',
    'credits?',
    'copyright',
    'picture',
    'pic',
    'illustration',
  ],
  en: ['photo credit', 'image credit', 'source'],
  de: ['bild(?:er|quelle|nachweis)?', 'bildrechte', 'quelle', 'grafik', 'archivbild', 'symbolbild'],
  es: ['imágenes', 'fuente'],
  pt: ['fonte'],
  pl: ['zdj[eę]cie', 'fot\\.'],
  it: ['foto(?:grafie|graf(?:ía|ia))?'],
};

/** Markers that can only mean a picture (not "source", which also cites a fact in running text). */
export const PICTURE_MARKERS: WordTable = {
  multi: ['fotos?', 'photos?', 'image(?:s|n|m)?', 'picture'],
  en: ['photo credit', 'image credit'],
  de: ['bild(?:er|quelle|nachweis)?'],
  es: ['imágenes'],
  pl: ['zdj[eę]cie', 'fot\\.'],
};

/** What follows a marker when the credit names who made it: "by", "via", "courtesy of". */
export const CREDIT_BY = ['by', 'via', 'courtesy(?: of)?'];

/** Said of a picture that is a stand-in ("Image illustrative", "Foto de archivo"), after a marker. */
export const STAND_IN_WORDS = ['illustrati\\w*', 'ilustrativ\\w*', "d'illustration", 'illustration', 'archivo', 'archives?', 'archiv', 'referencia'];
/** The same, where the line opens with it: "referencia" and the bare "illustration" are not among them. */
export const STAND_IN_LINE_WORDS = ['illustrati\\w*', 'ilustrativ\\w*', "d'illustration", 'archivo', 'archives?', 'archiv'];
/** English stand-ins before the picture word: "File photo", "Stock image". */
export const STAND_IN_KINDS = ['illustrative', 'file', 'stock', 'archive'];
export const STAND_IN_PICTURES = ['image', 'photo', 'picture'];

/** An instruction to click the picture: "Zum Vergrößern auf das Bild klicken.", "Click to enlarge". */
export const CLICK_TO_ENLARGE: WordTable = {
  de: ['zum vergrößern', 'vergrößern (?:per|mit) klick', 'klicken zum vergrößern', '(?:das |aufs )?(?:bild|foto) anklicken'],
  en: [
    'click (?:here |on (?:the )?(?:image|picture|photo) )?to (?:enlarge|zoom)',
    'click (?:for|to see) (?:a )?larger',
    'click (?:on )?the (?:image|picture|photo)\\b',
  ],
  fr: ['cliquez pour agrandir', 'cliquer pour agrandir'],
  es: ['haga clic para ampliar', 'pulse para ampliar'],
  it: ['clicca per ingrandire'],
  pl: ['kliknij,? aby powiększyć'],
};

/** Words in a class or id naming a caption, or a credit/source line that belongs to a picture. */
export const CAPTION_CLASS_WORDS: WordTable = {
  en: ['caption', 'legend'],
  de: ['bildunterschrift'],
};
/** Short caption names, matched whole: "bu" (Bildunterschrift), "pie" (pie de foto), "epigrafe", "didascalia". */
export const CAPTION_CLASS_SHORT = ['bu', 'pie', 'epigrafe', 'didascalia'];
/** A picture word and the part of it a name says: "photo-credit", "img_desc", "bild-text". */
export const CAPTION_CLASS_PICTURES = ['photo', 'image', 'img', 'foto', 'bild', 'media', 'picture'];
export const CAPTION_CLASS_PARTS = ['title', 'text', 'desc', 'info', 'source', 'credit'];
/** Words in a class or id naming a credit line. */
export const CREDIT_CLASS_WORDS: WordTable = {
  en: ['credits?', 'copyright', 'attribution', 'photographer', 'source', 'license', 'licence'],
  de: ['fotograf', 'quelle', 'autor-foto'],
  es: ['fuente'],
};

/** Words a credit joins names with; any other lower-case word makes the text a description. */
export const NAME_JOINERS = [
  '&',
  '-',
  '–',
  '/',
  '|',
  'und',
  'and',
  'y',
  'e',
  'et',
  'de',
  'da',
  'do',
  'dos',
  'del',
  'van',
  'von',
  'der',
  'den',
  'di',
  'la',
  'le',
  'via',
  'by',
];
/** Particles inside names ("Ursula von der Leyen") that also start a description ("Flagge von Singapur"). */
export const NAME_PARTICLES = ['von', 'van', 'der', 'den', 'de', 'da', 'do', 'dos', 'del', 'di', 'la', 'le'];
