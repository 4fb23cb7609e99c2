// Vocabulary as data: the words of labels, per language. A label is a short line that says what the block
// after it is ("Related articles", "Share this", "Anzeige"), not text of the article. Each entry is a phrase
// or a small pattern of one (a regular-expression fragment, matched against the whole line, case aside).
// The rules build their tests from these lists; adding a language or a phrase is a change here, not in a rule.

/** Languages with label words: ISO 639-1 codes. */
export type LabelLanguage = 'en' | 'de' | 'fr' | 'es' | 'it' | 'pt' | 'nl' | 'pl';

/**
 * Headings that open a section of links to elsewhere, of comments or of sharing buttons, or the site's own
 * notices. The whole heading must be one of them (optionally with a count before and punctuation after).
 */
export const SECTION_LABELS: Readonly<Record<LabelLanguage, readonly string[]>> = {
  en: [
    'related( articles| posts| stories| content| news| topics| links| reading)?',
    '(you )?(may|might|will|could) (also )?(like|enjoy|be interested in)( this| these)?',
    'more (from|on|in|about) .{1,40}',
    'more (stories|articles|news|posts|to read|to explore)',
    'read (more|next|also|this next)',
    'recommended( for you| articles| reading| stories)?',
    '(most|the most) (read|popular|viewed|shared|commented)( articles| stories| posts)?',
    '(popular|trending|latest|recent|top) (posts|articles|stories|news|now)',
    'further reading',
    'see more',
    'what to read next',
    "don't miss",
    'also on .{1,40}',
    '(table of )?contents',
    'on this page',
    '(\\d+ )?(comments?|responses?|replies)( \\(\\d+\\))?',
    'leave a (comment|reply)',
    '(add|post|write) (a|your) comment',
    'join the (discussion|conversation)',
    'share( this)?( article| post| story| page)?( on| via)?',
    'share and enjoy',
    '(was|is) this (article|post|page) (helpful|useful)',
    'did you find this (article|post|page) (helpful|useful)',
    'spread the word',
    'about the author',
    'about us',
    'follow us( on .{1,30})?',
    'subscribe( to .{1,40})?',
    'sign up( for .{1,40})?',
    '(our |the )?newsletter',
    'tags?',
    'categories',
    'filed under',
    'advertisement',
    'sponsored( content)?',
    'contact( us)?',
    // A site's sponsors and partners: a wall of logos, not the article (the German forms with them).
    '(our |unsere )?(sponsors|sponsoren|förderer)( (and|und|&) (partners?|förderer|sponsoren))?',
    '(our|unsere) partner(s)?',
  ],
  de: [
    'auch interessant',
    '.{0,30}(könnte|dürfte)n? (dich|sie|euch) (auch )?interessieren',
    '(das )?interessiert (dich|sie) (vielleicht )?auch',
    'schon gelesen',
    'zum weiterlesen',
    'weiterlesen',
    '(noch )?mehr (themen|infos|artikel|beiträge|news)( .{1,30})?',
    'entdecke(n sie)? (jetzt|weitere|mehr)( .{1,40})?',
    'inhaltsverzeichnis',
    'war (der|dieser) (artikel|beitrag) (nützlich|hilfreich)',
    '(möchten sie|möchtest du|willst du|wollen sie) (den|diesen) (artikel|beitrag) teilen',
    '(artikel|beitrag) gefallen.{0,40}',
    'heute empfehlen wir',
    'kommentar(e)? (schreiben|verfassen|hinzufügen)',
    '(aktuelle|neueste) (produkttests|tests|videos|ausgaben?)',
    'weitere (artikel|beiträge|themen|nachrichten|news|meldungen|informationen|links|tipps|tourentipps|rezepte|videos|bilder)( .{1,40})?',
    'mehr (zum thema|zu diesem thema|dazu|aus|von|zu) ?.{0,40}',
    'zum thema',
    '(ähnliche|verwandte|passende) (artikel|beiträge|themen|rezepte|produkte)',
    '(lesen|lies) (sie |du )?(auch|weiter|mehr)( .{1,40})?',
    'verwandte themen(bereiche)?',
    '(den |diesen )?artikel (mit anderen )?teilen.{0,30}',
    'kontakt(daten)?',
    'ansprechpartner(in|innen)?( zum thema| für (die )?presse(anfragen)?)?',
    'permalink',
    'unterstütze(n sie)? .{1,40}',
    'das (sollten sie|solltest du) auch lesen',
    'empfehlungen?( der redaktion)?',
    'unsere empfehlungen?',
    'meist-?(gelesen|diskutiert|kommentiert|geteilt)(e|en)?( artikel| beiträge)?',
    '(beliebte|neueste|aktuelle|neue) (artikel|beiträge|nachrichten|meldungen)',
    'top-?(news|themen|artikel)',
    '(\\d+ )?kommentare?( \\(\\d+\\))?',
    'kommentieren',
    '(ihre|deine) meinung( ist gefragt)?',
    '(schreib|schreiben sie) (einen|uns einen) kommentar',
    '(artikel|beitrag|seite|rezept) (teilen|drucken|empfehlen)',
    'teilen( sie)?( diesen| den)?( artikel| beitrag)?( mit)?',
    'diesen artikel teilen',
    'über (den|die|das) (autor|autorin|autoren|redaktion)',
    'zur (person|autorin|autor)',
    'schlagw(ö|o)rter',
    'stichw(ö|o)rter',
    'themen',
    'kategorien?',
    'anzeige',
    'werbung',
    '(nächster|vorheriger) (artikel|beitrag)',
    'vorschau auf den nächsten (artikel|beitrag)',
  ],
  fr: [
    '(à )?lire aussi',
    'sur le même (sujet|thème)',
    'articles? (similaires|liés|connexes|recommandés)',
    '(vous )?(aimerez|pourriez aimer) aussi',
    'les plus (lus|partagés|commentés)',
    'commentaires?',
    'laisser un commentaire',
    'partager( cet article)?',
    'à propos de l.auteur',
    'sommaire',
    'permalien',
  ],
  es: [
    '(te|le) puede interesar',
    'puedes ver',
    'valora esta noticia',
    'índice',
    '(noticias|artículos|articulos) relacionad[oa]s',
    'comentarios',
    'lo más (leído|visto)',
    'compartir',
  ],
  it: ['leggi anche', 'articoli correlati', 'potrebbe interessarti', 'commenti', 'condividi'],
  pt: ['leia (também|mais)', 'veja também', 'artigos relacionados'],
  nl: ['lees ook', 'gerelateerde artikelen', 'reacties', 'meer nieuws'],
  pl: ['czytaj (także|też|również)', 'zobacz (także|też|również)', 'polecamy', 'komentarze', 'podobne artykuły', 'udostępnij'],
};

/** Every section label, all languages together: a page may mix them (an English site's German edition). */
export const ALL_SECTION_LABELS: readonly string[] = Object.values(SECTION_LABELS).flat();

/** The label over an advert: "Anzeige", "Advertisement", "— Werbung —". */
export const ADVERT_LABELS: Readonly<Partial<Record<LabelLanguage, readonly string[]>>> = {
  en: ['advertisement', 'sponsored', 'advertorial'],
  de: ['anzeige', 'werbung'],
  fr: ['publicité'],
  es: ['publicidad'],
  it: ['pubblicità'],
  pl: ['reklama'],
};

/** Share and print buttons left as text: "Share", "Teilen", "Drucken". */
export const SHARE_LABELS: Readonly<Partial<Record<LabelLanguage, readonly string[]>>> = {
  en: ['share', 'print'],
  de: ['teilen', 'drucken'],
  fr: ['partager', 'imprimer'],
  es: ['compartir'],
  it: ['condividi'],
  pl: ['drukuj', 'udostępnij'],
};

/** The words of one table, all languages together. */
export function allLabels(table: Readonly<Partial<Record<LabelLanguage, readonly string[]>>>): readonly string[] {
  return Object.values(table).flat();
}
